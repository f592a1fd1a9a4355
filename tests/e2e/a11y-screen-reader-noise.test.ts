import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import a11y from '../../schemas/text/accessibility.json';
import esA11y from '../../schemas/i18n/es/text/accessibility.json';
import esFrame from '../../schemas/i18n/es/text/frame.json';
import frame from '../../schemas/text/frame.json';
import validation from '../../schemas/text/validation.json';
import esValidation from '../../schemas/i18n/es/text/validation.json';
import aboutUi from '../../schemas/pages/about.ui.json';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { axeViolations } from '../helpers/axe.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import { byId, byName, focusStop, tabTo } from '../helpers/keyboard.ts';

/** Less for a screen reader to hear twice or wrongly: each found by ear, each checked by keyboard. */
const env = useServerAndBrowser();

let counter = 0;

/** An applicant with these answers saved, on `path`, in `language`, taken over by the page's scripts. */
async function applicantOn(path: string, answers: Record<string, string>, language: 'en' | 'es' = 'en'): Promise<{ page: Page; api: ApiSession }> {
  const api = await createConfirmedApplicant(env.server.app, `heard${++counter}@example.org`);
  if (Object.keys(answers).length) await api.put('/api/answer', answers);
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: env.server.url })));
  await context.addCookies([{ name: 'lang', value: language, url: env.server.url }]);
  const { page } = await openPage(context);
  await page.goto(`${env.server.url}${path}`);
  await page.locator(`#root:not([data-drawn]) [data-page="${path.slice(1)}"]`).waitFor();
  return { page, api };
}

async function anonymousPage(path: string) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page } = await openPage(context);
  await page.goto(`${env.server.url}${path}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  return page;
}

describe('screen reader noise', () => {
  it('a dialog is not inside a live region (it would be read twice)', async () => {
    const page = await anonymousPage('/about');
    await tabTo(page, byName(frame.footer.help), { max: 150 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: frame.help_dialog.title });
    await dialog.waitFor();
    await expect.poll(async () => (await focusStop(page))?.region).toBe('dialog');
    expect(await page.locator('[aria-live] [role="dialog"]').count()).toBe(0);
    await page.context().close();
  });

  it('"Show password" keeps its name and says by aria-pressed whether the password shows', async () => {
    const page = await anonymousPage('/login');
    await tabTo(page, byName(a11y.show_password), { max: 20 });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-pressed'))).toBe('true');
    expect((await focusStop(page))?.name).toBe(a11y.show_password);
    expect(await page.locator('#field-password').getAttribute('type')).toBe('text');
    await page.context().close();
  });

  it('a code pasted with words around it keeps its six digits', async () => {
    const page = await anonymousPage('/confirm');
    await tabTo(page, byId('field-code'), { max: 20 });
    await page.keyboard.insertText('Your code: 123456');
    await expect.poll(() => page.locator('#field-code').inputValue()).toBe('123456');
    await page.context().close();
  });

  it('a heading is focusable only while it holds the focus (a focusable heading is heard "clickable")', async () => {
    const page = await anonymousPage('/about');
    expect(await page.locator('h1').getAttribute('tabindex')).toBeNull();
    await tabTo(page, byName('2 Your Education'), { max: 20 });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'Your Education');
    await page.keyboard.press('Tab');
    expect(await page.locator('h1').getAttribute('tabindex')).toBeNull();
    await page.context().close();
  });

  it('a dialog\'s × is named in the page\'s language', async () => {
    const { page } = await applicantOn('/about', {}, 'es');
    await tabTo(page, byName(esFrame.footer.help), { max: 150 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: esFrame.help_dialog.title });
    await dialog.waitFor();
    await expect.poll(() => dialog.locator('.bp6-dialog-close-button').getAttribute('aria-label')).toBe(esA11y.close_dialog);
    await page.context().close();
  });

  it('the question before answers are removed has no ×, and Escape says the answers are kept', async () => {
    const { page, api } = await applicantOn('/about', { mailing_addr_same_as_perm_addr: 'N', mailing_address_line_1: '12 Kept Lane' });
    await expect.poll(() => page.locator('#mailing_address_line_1').inputValue()).toBe('12 Kept Lane');
    await page.locator('#mailing_addr_same_as_perm_addr-N').focus();
    // an arrow that would hide answers is asked about once the choice is committed (Enter, or leaving the group)
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: frame.hidden_answers.title });
    await dialog.waitFor();
    expect(await dialog.getByRole('button').allTextContents()).toEqual([frame.hidden_answers.keep, frame.hidden_answers.confirm]);
    await screenshot(page, 'hidden-answers-question-without-close', { fullPage: false });
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.locator('[role="status"]', { hasText: frame.hidden_answers.kept }).waitFor();
    expect((await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer.mailing_address_line_1).toBe('12 Kept Lane');
    await page.context().close();
  });

  it('Parent/Guardian 2\'s instruction is read with its list', async () => {
    const page = await anonymousPage('/about');
    const description = await page.locator('#parent_2_relationship').evaluate((list) =>
      (list.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' '));
    expect(description).toContain((aboutUi.parent_2 as { parent_relationship: { 'ui:description': string } }).parent_relationship['ui:description']);
    await page.context().close();
  });

  it('an International Phone without its country code is kept as typed and said wrong when left', async () => {
    const { page, api } = await applicantOn('/about', { country: 'GBR' });
    await typeAndLeave(page, 'phone_international', '44 20 7946 0958');
    const message = page.locator('[data-field-key="phone_international"] .field-error');
    await message.waitFor();
    expect(await message.textContent()).toContain('country code');
    expect(await page.locator('#phone_international').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#phone_international').getAttribute('aria-describedby')).toContain('phone_international-error');
    expect(await page.locator('#phone_international').inputValue()).toBe('44 20 7946 0958');
    await expect.poll(async () => (await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer.phone_international).toBe('44 20 7946 0958');
    // written with its country code: normalised, and the message goes
    await typeAndLeave(page, 'phone_international', '+44 20 7946 0958');
    await message.waitFor({ state: 'detached' });
    await expect.poll(async () => (await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer.phone_international).toBe('+442079460958');
    await page.context().close();
  });

  it('a missing answer says what to do, in English and in Spanish', async () => {
    for (const [language, texts, label] of [['en', validation, 'Legal Last Name'], ['es', esValidation, 'Apellido legal']] as const) {
      const { page, api } = await applicantOn('/about', {}, language);
      await api.post('/api/web-status', { web_status: 'started' });
      await api.post('/api/web-status', { web_status: 'validating' });
      await page.reload();
      const message = page.locator('[data-field-key="last_name"] .field-error');
      await message.waitFor();
      expect(await message.textContent()).toBe(texts.missing.text.replace('{label}', label));
      expect(await page.locator('[data-field-key="gender"] .field-error').textContent()).toBe(texts.missing.choice.replace('{label}', language === 'en' ? 'Gender' : 'Género'));
      await page.context().close();
    }
  });
});

async function typeAndLeave(page: Page, id: string, text: string): Promise<void> {
  await page.locator(`#${id}`).focus();
  await page.locator(`#${id}`).selectText().catch(() => undefined);
  await page.keyboard.type(text);
  await page.keyboard.press('Tab');
}
