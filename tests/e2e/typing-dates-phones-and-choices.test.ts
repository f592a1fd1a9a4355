/**
 * Where a person filling the form stumbled, tried in Chromium as they would:
 * an international phone typed with separators, dates typed key by key, an optional radio
 * taken back, the ACT "not planning to take it", the I-20 answer that clears the major,
 * and the about page's order (the transcript tab's message: stumbles-more.test.ts). One server for the file.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import a11y from '../../schemas/text/accessibility.json';
import frame from '../../schemas/text/frame.json';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { axeViolations } from '../helpers/axe.ts';
import { openPage } from '../../support/browser.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';

const env = useServerAndBrowser();
let applicants = 0;

const NOT_SUPPORTED = 'This date is not supported. Please contact help support for assistance.';
const field = (page: Page, key: string) => page.locator(`[data-field-key="${key}"]`);

/** Tab out of a date: Chromium's Tab first walks the input's own parts (the year, its calendar button). */
async function leaveDate(page: Page, id: string): Promise<void> {
  for (let step = 0; step < 4 && (await page.evaluate(() => document.activeElement?.id)) === id; step++) await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.id)).not.toBe(id);
}

/** An applicant being validated (errors show), with these answers, on `path`. */
async function validatingApplicant(path: string, answers: Record<string, string | boolean>): Promise<{ api: ApiSession; page: Page; close(): Promise<void> }> {
  const api = await createConfirmedApplicant(env.server.app, `stumbles-${++applicants}@example.org`);
  expect((await api.put('/api/answer', answers)).status).toBe(200);
  await api.post('/api/web-status', { web_status: 'started' });
  await api.post('/api/web-status', { web_status: 'validating' });
  const context = await env.browser.newContext();
  await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: env.server.url })));
  const { page } = await openPage(context);
  await page.goto(`${env.server.url}${path}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return { api, page, close: () => context.close() };
}

async function anonymousPage(path: string): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await env.browser.newContext();
  const { page } = await openPage(context);
  await page.goto(`${env.server.url}${path}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return { page, close: () => context.close() };
}

describe('an applicant abroad', () => {
  it('types an international phone with spaces, dots, dashes or brackets; it is checked and saved in E.164', async () => {
    const { api, page, close } = await validatingApplicant('/about', { ...completeApplication(), country: 'GBR', state: '', zip: '', phone_home: '' });
    const input = page.locator('#phone_international');
    const error = field(page, 'phone_international').locator('.field-error');

    await input.fill('020 7946 0958'); // no country code: refused, with the message's own example
    await input.press('Tab');
    await error.waitFor();
    expect(await error.textContent()).toContain('+44 20 7946 0958');

    for (const typed of ['+44 20 7946 0958', '+44 (0)20 7946-0958', '+44.20.7946.0958']) {
      await input.fill(typed);
      await input.press('Tab');
      await page.waitForFunction(() => (document.getElementById('phone_international') as HTMLInputElement).value === '+442079460958');
      await error.waitFor({ state: 'detached' });
    }
    await page.getByRole('link', { name: /Your Education/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Your Education' }).waitFor();
    expect((await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer.phone_international).toBe('+442079460958');
    await close();
  });

  it('meets the address, then the mailing address, then the phones', async () => {
    const { page, close } = await anonymousPage('/about');
    const headings = await page.locator('h2.section-title').allTextContents();
    const at = (title: string) => headings.indexOf(title);
    expect(at('Permanent Address')).toBeGreaterThan(-1);
    expect(at('Permanent Address')).toBeLessThan(at('Mailing Address'));
    expect(at('Mailing Address')).toBeLessThan(at('Phone'));
    await close();
  });
});

describe('dates typed key by key', () => {
  it('a birth date typed digit by digit is checked when the field is left, not while the year reads 0002 or 0200', async () => {
    const { api, page, close } = await validatingApplicant('/about', { ...completeApplication(), birth_date: '' });
    const input = page.locator('#birth_date');
    await input.focus();
    for (const key of '03142008') {
      await page.keyboard.press(key);
      expect(await field(page, 'birth_date').getByText(NOT_SUPPORTED).count()).toBe(0);
    }
    expect(await input.inputValue()).toBe('2008-03-14');
    await leaveDate(page, 'birth_date');
    await page.getByRole('link', { name: /Your Education/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Your Education' }).waitFor();
    expect((await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer.birth_date).toBe('2008-03-14');
    await close();
  });

  it('editing the year of a saved date never clears the field', async () => {
    const { api, page, close } = await validatingApplicant('/about', { ...completeApplication(), birth_date: '2008-03-14' });
    const input = page.locator('#birth_date');
    await input.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight'); // the year
    for (const [key, shown] of [['2', '0002-03-14'], ['0', '0020-03-14'], ['0', '0200-03-14'], ['7', '2007-03-14']] as const) {
      await page.keyboard.press(key);
      expect(await input.inputValue()).toBe(shown);
      expect(await field(page, 'birth_date').getByText(NOT_SUPPORTED).count()).toBe(0);
    }
    await leaveDate(page, 'birth_date');
    expect(await input.inputValue()).toBe('2007-03-14');
    await page.getByRole('link', { name: /Your Education/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Your Education' }).waitFor();
    expect((await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer.birth_date).toBe('2007-03-14');
    await close();
  });

  it('a year left half typed shows why and stays on screen to be corrected', async () => {
    const { page, close } = await validatingApplicant('/about', { ...completeApplication(), birth_date: '2008-03-14' });
    const input = page.locator('#birth_date');
    await input.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('2');
    await leaveDate(page, 'birth_date');
    await field(page, 'birth_date').getByText('A valid date of birth is required').first().waitFor(); // year 2 is no date the form takes
    expect(await input.inputValue()).toBe('0002-03-14');
    // corrected: the message goes, the date is kept
    await input.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    for (const key of '2007') await page.keyboard.press(key);
    await leaveDate(page, 'birth_date');
    await field(page, 'birth_date').getByText('A valid date of birth is required').waitFor({ state: 'detached' });
    expect(await input.inputValue()).toBe('2007-03-14');
    await close();
  });
});

describe('choices', () => {
  it('an optional radio answer can be taken back', async () => {
    const { page, close } = await anonymousPage('/about');
    const ethnicity = field(page, 'ethnicity');
    await ethnicity.locator('label.bp6-control').first().click();
    expect(await ethnicity.locator('input:checked').count()).toBe(1);
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await ethnicity.getByRole('button', { name: a11y.clear_choice }).click();
    expect(await ethnicity.locator('input:checked').count()).toBe(0);
    expect(await ethnicity.getByRole('button', { name: a11y.clear_choice }).count()).toBe(0);
    // a required radio offers no clearing
    await field(page, 'gender').locator('label.bp6-control').first().click();
    expect(await field(page, 'gender').getByRole('button', { name: a11y.clear_choice }).count()).toBe(0);
    await close();
  });

  it('an applicant who took only the SAT can say they are not planning to take the ACT or CLT', async () => {
    const { page, close } = await anonymousPage('/education-ug');
    const choose = (key: string, label: string) => field(page, key).locator('label.bp6-control', { hasText: label }).click();
    await choose('test_taken_ind', 'Yes');
    await choose('test_optional', 'Yes');
    await choose('sat_taken', 'Taken');
    await choose('act_taken', 'Not yet');
    await field(page, 'act_plan_month').waitFor();
    await choose('act_taken', 'Not planning to take it');
    await field(page, 'act_plan_month').waitFor({ state: 'detached' });
    expect(await field(page, 'act_taken_unsure').count()).toBe(0);
    await choose('clt_taken', 'Not planning to take it');
    expect(await field(page, 'clt_plan_month').count()).toBe(0);
    await close();
  });

  it('changing the I-20 answer says that it cleared the intended major', async () => {
    const { page, close } = await validatingApplicant('/about', { ...completeApplication(), citizenship_type: '3', visa_radio: 'N', citizenship: 'DEU', program_type: 'FY', applied_major: 'BUSO' });
    await field(page, 'visa_radio').locator('label.bp6-control', { hasText: 'Yes' }).click();
    const notice = page.locator('.clear-notice', { hasText: 'intended major' });
    await notice.waitFor();
    expect(await notice.getAttribute('role')).toBe('status');
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await page.getByRole('navigation', { name: frame.steps_label }).getByRole('link', { name: /Your Education/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Your Education' }).waitFor();
    expect(await page.locator('#applied_major').inputValue()).toBe('');
    await close();
  });
});
