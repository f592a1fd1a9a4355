/**
 * What an applicant does with reminders, in Chromium: a reminder kept in the outbox (no
 * SMTP server set) carries one-click unsubscribe and a plain link; the link opens a page
 * that stops them only when asked (in the applicant's language); the account menu shows
 * them off and turns them back on.
 */
import { describe, expect, it } from 'vitest';
import frame from '../../schemas/text/frame.json';
import spanishFrame from '../../schemas/i18n/es/text/frame.json';
import apiMessages from '../../schemas/text/api-messages.json';
import spanishApiMessages from '../../schemas/i18n/es/text/api-messages.json';
import { openPage, screenshot } from '../../support/browser.ts';
import { signedInPage } from '../../support/signed-in-page.ts';
import { seedApplicant } from '../../support/seed.ts';
import { until } from '../../support/until.ts';
import { axeViolations } from '../helpers/axe.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';

const env = useServerAndBrowser();
const WEEK_BEFORE = new Date('2027-01-08T15:30:00Z');

/** The reminder kept in the outbox for `email`, once its job has run. */
async function outboxReminder(email: string) {
  return until(async () => env.server.app.db.selectFrom('outbox').select(['subject', 'body', 'headers'])
    .where('recipient', '=', email).where('headers', 'is not', null).executeTakeFirst(), `the reminder to ${email} in the outbox`);
}
const plainLink = (body: string) => /(https?:\/\/\S+\/unsubscribe\?\S+)/.exec(body)![1]!;

describe('reminder e-mails', () => {
  it('an English reminder\'s link stops reminders only when asked, and the account menu turns them back on', async () => {
    const { page, context, api } = await signedInPage(env.browser, env.server, { email: 'remind.me@example.org', lastPage: '/education-ug', status: 'started' });
    expect(await env.server.app.reminders.queueDue(WEEK_BEFORE)).toBe(1);
    const mail = await outboxReminder('remind.me@example.org');
    expect(mail.headers).toEqual({ 'List-Unsubscribe': expect.stringMatching(/^<http:\/\/localhost:\d+\/public\/unsubscribe\?token=[\w.-]+>$/), 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });

    await page.goto(plainLink(mail.body));
    await page.getByRole('heading', { level: 1, name: frame.reminders.unsubscribe_title }).waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await screenshot(page, 'unsubscribe-page');
    // opening the link stopped nothing
    expect((await api.get<{ reminders: boolean }>('/api/reminders')).body).toEqual({ reminders: true });
    await page.getByRole('button', { name: frame.reminders.unsubscribe_button }).click();
    await page.getByRole('status').filter({ hasText: apiMessages.reminders_stopped }).waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    expect((await api.get<{ reminders: boolean }>('/api/reminders')).body).toEqual({ reminders: false });

    await page.goto(`${env.server.url}/education-ug`);
    await page.getByRole('button', { name: frame.header.account_button }).click();
    const toggle = page.getByRole('switch', { name: frame.reminders.label });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    await page.getByText(frame.reminders.off).waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await toggle.click({ force: true });
    await page.getByText(frame.reminders.on).waitFor();
    await screenshot(page, 'account-menu-reminders-on', { fullPage: false });
    await expect.poll(async () => (await api.get<{ reminders: boolean }>('/api/reminders')).body).toEqual({ reminders: true });
    await context.close();
  });

  it('a Spanish applicant\'s reminder and its page are in Spanish', async () => {
    await seedApplicant(env.server.app, { email: 'recordar@example.org', language: 'es', lastPage: '/about', status: 'started' });
    // the day's reminder goes to the first applicant too, who turned reminders back on
    expect(await env.server.app.reminders.queueDue(new Date('2027-01-14T15:30:00Z'))).toBe(2);
    const mail = await outboxReminder('recordar@example.org');
    expect(mail.body).toContain('15 de enero');
    const context = await env.browser.newContext();
    const { page } = await openPage(context);
    await page.goto(plainLink(mail.body));
    await page.getByRole('heading', { level: 1, name: spanishFrame.reminders.unsubscribe_title }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await page.getByRole('button', { name: spanishFrame.reminders.unsubscribe_button }).click();
    await page.getByRole('status').filter({ hasText: spanishApiMessages.reminders_stopped }).waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await screenshot(page, 'unsubscribe-page-es');
    await context.close();
  });
});
