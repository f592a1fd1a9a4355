import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import documentsText from '../../schemas/documents.json';
import loginForm from '../../schemas/auth/login.json';
import authMessages from '../../schemas/auth/messages.json';
import errors from '../../schemas/text/errors.json';
import frame from '../../schemas/text/frame.json';
import lookupText from '../../schemas/text/lookup.json';
import { readCsv } from '../../scripts/lookups/csv-lines.ts';
import { importLookups } from '../../scripts/lookups/import-lookups.ts';
import { STRONG_PASSWORD, type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { axeViolations } from '../helpers/axe.ts';
import { openPage, screenshot, settle } from '../../support/browser.ts';
import { makePdf } from '../../support/document-fixtures.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import { activeDescription, byId, failLoginByKeyboard, byName, focusStop, tabTo } from '../helpers/keyboard.ts';
import { signedInPage } from '../../support/signed-in-page.ts';
import { conversionCeilingMs, testConversionCeilingMs } from '../../support/ceilings.ts';

/**
 * A review with a screen reader, the keyboard alone and a phone found seven WCAG failures:
 * one test per failure, and the smaller findings after them, each run with the keyboard alone where it is an interaction.
 */
const env = useServerAndBrowser();
beforeAll(async () => {
  for (const category of ['address', 'hs_ceeb'] as const) {
    await importLookups(env.server.app.db, category, readCsv(readFileSync(join(import.meta.dirname, `../fixtures/lookups/${category}.csv`), 'utf8')));
  }
});
let counter = 0;
const PHONE = { width: 375, height: 740 };
const SMALL = { width: 320, height: 640 };

async function signedIn(path: string, options: { viewport?: { width: number; height: number }; clock?: boolean } = {}): Promise<{ page: Page; api: ApiSession }> {
  const lastPage = path !== '/about' ? path : undefined;
  return signedInPage(env.browser, env.server, { email: `second${++counter}@example.org`, lastPage }, { ...options, path });
}

async function anonymousPage(path: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await env.browser.newContext({ viewport });
  const { page } = await openPage(context);
  await page.goto(`${env.server.url}${path}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return page;
}

/** Screenshots of the state at 375 and 320 px (test-results/screenshots), each checked by axe. */
async function phoneShots(page: Page, name: string): Promise<void> {
  for (const viewport of [PHONE, SMALL]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => document.activeElement?.scrollIntoView({ block: 'center' }));
    await screenshot(page, `second-pass-${viewport.width}-${name}`, { fullPage: false });
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  }
}

/** The words a screen reader gives as the focused element's description (its aria-describedby, in order). */
const focusedDescription = (page: Page) => page.evaluate(() => (document.activeElement?.getAttribute('aria-describedby') ?? '')
  .split(' ').filter(Boolean).map((id) => document.getElementById(id)?.textContent ?? '').join(' '));

const statusText = (page: Page, selector: string) => page.locator(selector).evaluate((element) => element.textContent ?? '');

describe('seven WCAG criteria the form once failed', () => {
  it('1. a tab switch asks first, naming what it removes and how many (3.3.4); "Keep my answers" keeps them', async () => {
    const { page, api } = await signedIn('/education-ug');
    await api.put('/api/add-another', { button_id: 'add_class', num_components: 2 });
    await api.put('/api/answer', { hs_class_name: 'Biology', hs_2_class_name: 'Calculus' });
    await page.reload();
    await expect.poll(() => page.locator('#hs_2_class_name').inputValue()).toBe('Calculus');

    await tabTo(page, (stop) => stop.role === 'tab' && stop.name === 'Enter my classes');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    const ask = page.getByRole('alertdialog', { name: frame.tab_switch.title.replace('{tab}', 'Upload my transcript') });
    await ask.waitFor();
    expect(await ask.textContent()).toContain('Switching removes 2 classes you entered.');
    await page.waitForFunction((keep) => document.activeElement?.textContent === keep, frame.tab_switch.keep);
    await phoneShots(page, 'tab-switch-question');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'hidden' });
    expect(await page.getByRole('tab', { name: 'Enter my classes' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.locator('#hs_class_name').inputValue()).toBe('Biology');
    expect(await activeDescription(page)).toBe('#hs_classes_tabs-tab-transcript'); // the focus is back on the tab

    // Enter held while the dialog opens: its release lands on "Keep my answers", which Blueprint's
    // buttons would take as a click (the dialog gone before it could be read); it must do nothing
    await page.keyboard.down('Enter');
    await ask.waitFor();
    await page.waitForFunction((keep) => document.activeElement?.textContent === keep, frame.tab_switch.keep); // the dialog has placed its focus
    await page.keyboard.up('Enter');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))); // what a click would do is drawn
    expect(await page.locator('.bp6-overlay-open [role="alertdialog"]').count()).toBe(1); // open, not closing
    expect(await page.getByRole('tab', { name: 'Enter my classes' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Tab');
    expect((await focusStop(page))?.name).toBe(frame.tab_switch.confirm);
    await page.keyboard.press('Enter');
    await page.locator('#hs_transcript').waitFor();
    await expect.poll(async () => (await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer.hs_class_name ?? '', { timeout: 15_000 }).toBe('');

    // nothing on the transcript tab yet: switching back does not ask
    await page.getByRole('tab', { name: 'Enter my classes' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#hs_class_name').waitFor();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await page.context().close();
  });

  it('2. a success clears the stale error toast, and a toast never covers the focused element (2.4.11)', async () => {
    const email = `toasts${++counter}@example.org`;
    const api = await createConfirmedApplicant(env.server.app, email);
    await api.put('/api/last-page', { last_page: '/education-ug' });
    const page = await anonymousPage('/login', PHONE);
    await tabTo(page, byId('field-username'));
    await page.keyboard.type(email);
    await tabTo(page, byId('field-password'));
    await page.keyboard.type('Wrong-Password-1!');
    await page.keyboard.press('Enter');
    const failed = page.locator('.app-toaster .bp6-toast', { hasText: authMessages.login_failed });
    await failed.waitFor();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(STRONG_PASSWORD);
    await page.keyboard.press('Enter');
    await page.locator('.app-toaster .bp6-toast', { hasText: authMessages.login_success }).waitFor();
    await failed.waitFor({ state: 'detached' });

    // an error toast on a form page, then the keyboard goes up to the Account button under it
    await page.route('**/api/add-another', (route) => (route.request().method() === 'PUT'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' })
      : route.continue()));
    await page.locator('#root:not([data-drawn]) [data-page="education-ug"]').waitFor();
    await tabTo(page, byName('Add another honor or award'), { max: 120 });
    await page.keyboard.press('Enter');
    const error = page.locator('.app-toaster .bp6-toast.bp6-intent-danger');
    await error.waitFor();
    expect(await error.textContent()).toContain(errors.toast.add_another_error.replace('{id}', 'Add another honor or award'));
    await settle(page);
    const account = await tabTo(page, (stop) => stop.region === 'header' && /Account/i.test(stop.name), { backwards: true, max: 150 });
    await settle(page);
    expect(await error.isVisible()).toBe(true);
    expect((await focusStop(page))?.obscured, account.name).toBe(false);
    const [toastBox, accountBox] = await Promise.all([error.boundingBox(), page.locator(':focus').boundingBox()]);
    expect(toastBox!.y >= accountBox!.y + accountBox!.height || toastBox!.y + toastBox!.height <= accountBox!.y).toBe(true);
    await screenshot(page, 'second-pass-375-toast-moved', { fullPage: false });
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await page.context().close();
  });

  it('3. closing a toast gives the focus back; "Fill in city and state" focuses the city and says so (2.4.3)', async () => {
    const page = await anonymousPage('/login');
    const toast = await failLoginByKeyboard(page);
    // the toast is a group named by its title; its close button says what it closes
    expect(await toast.getAttribute('role')).toBe('group');
    expect(await toast.getAttribute('aria-label')).toBe(errors.toast.card_error.replace('{card}', loginForm.title));
    expect(await toast.locator('button').getAttribute('aria-label')).toBe(errors.toast.close);
    await page.keyboard.press('F8');
    expect((await focusStop(page))?.region).toBe('toast');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.activeElement?.id === 'field-password');
    await toast.waitFor({ state: 'detached' });

    await page.keyboard.press('Enter');
    await toast.waitFor();
    await page.keyboard.press('F8');
    await page.keyboard.press('Tab'); // the close button
    expect((await focusStop(page))?.name).toBe(errors.toast.close);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'field-password');
    await page.context().close();

    const about = await anonymousPage('/about');
    await tabTo(about, byId('zip'), { max: 60 });
    await about.keyboard.type('84101');
    const place = 'Salt Lake City, UT';
    await about.getByRole('button', { name: lookupText.zip_fill.replace('{place}', place) }).waitFor();
    await tabTo(about, byName(lookupText.zip_fill.replace('{place}', place)), { max: 1 });
    await about.keyboard.press('Enter');
    await about.waitForFunction(() => document.activeElement?.id === 'city');
    expect(await about.locator('#city').inputValue()).toBe('Salt Lake City');
    await expect.poll(() => about.locator('[role="status"]', { hasText: lookupText.zip_filled.replace('{place}', place) }).count()).toBe(1);
    await about.context().close();
  });

  it('4. after an inactivity logout no warning stays over the login page (2.4.3)', async () => {
    const { page } = await signedIn('/about', { clock: true });
    const timeoutMs = await page.evaluate(async () => ((await (await fetch('/api/profile')).json()) as { inactivity_timeout_ms: number }).inactivity_timeout_ms);
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    const warning = page.getByRole('alertdialog', { name: frame.inactivity.title });
    await page.clock.runFor(timeoutMs - 59_000);
    await warning.waitFor();
    await page.clock.runFor(60_000);
    await page.clock.resume();
    await page.waitForURL(`${env.server.url}/login`);
    await page.locator('.bp6-toast', { hasText: errors.inactivity_logout }).waitFor();
    await warning.waitFor({ state: 'detached' });
    expect(await page.locator('[aria-modal="true"]').count()).toBe(0);
    // the keyboard reaches the login fields, which are not behind anything
    const field = await tabTo(page, byId('field-username'));
    expect(field.obscured).toBe(false);
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await page.context().close();
  });

  it('5. a file question says its types, size and name limit with the control (3.3.2)', async () => {
    const { page } = await signedIn('/final-steps');
    // the file question's control arrives with its own module, after the page
    await page.locator('input#supporting_document').waitFor({ state: 'attached' });
    const chooser = await tabTo(page, byId('supporting_document'));
    const description = await page.locator('#supporting_document').evaluate((input) => (input.getAttribute('aria-describedby') ?? '')
      .split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' '));
    for (const part of ['.png', '.jpeg', '.jpg', '.pdf', '.docx', '1 MB', String(documentsText.max_name_length)]) expect(description, chooser.name).toContain(part);
    await phoneShots(page, 'file-rules');
    await page.setViewportSize({ width: 1280, height: 800 });

    // the file handed to the input the keyboard focused (the system's picker cannot be driven):
    // the focus then rests on the named question, with a ring
    await page.locator('#supporting_document').setInputFiles({ name: 'letter.pdf', mimeType: 'application/pdf', buffer: await makePdf() });
    await page.locator('[data-field-key="supporting_document"] [data-document-phase="done"]').waitFor({ timeout: conversionCeilingMs(env.server.config) });
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const label = element.getAttribute('aria-labelledby');
      return { role: element.getAttribute('role') ?? element.tagName, name: label ? document.getElementById(label)?.textContent : element.textContent, outline: getComputedStyle(element).outlineStyle };
    });
    expect(focused.name).toContain('Supporting Document');
    expect(focused.outline).not.toBe('none');
    await page.context().close();
  }, testConversionCeilingMs() + 60_000);

  it('6. the Privacy dialog\'s title wraps at 320 px instead of being cut off (1.4.10)', async () => {
    const page = await anonymousPage('/about', SMALL);
    await tabTo(page, byName(frame.footer.privacy), { backwards: true, max: 10 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await settle(page);
    const title = dialog.locator('.bp6-dialog-header .bp6-heading');
    const fits = await title.evaluate((element) => ({ cut: element.scrollWidth > element.clientWidth, overflow: getComputedStyle(element).textOverflow }));
    expect(fits).toEqual({ cut: false, overflow: 'clip' });
    await phoneShots(page, 'privacy-dialog');
    await page.context().close();
  });

  it('7. "All changes saved" is announced politely when a save ends, not on each keystroke (4.1.3)', async () => {
    const { page, api } = await signedIn('/about');
    await page.locator('.save-status [role="status"]').evaluate((region) => {
      const seen: string[] = [];
      (window as unknown as { announced: string[] }).announced = seen;
      new MutationObserver(() => seen.push(region.textContent ?? '')).observe(region, { childList: true, characterData: true, subtree: true });
    });
    await tabTo(page, byId('first_name'), { max: 60 });
    await page.keyboard.type('Ada');
    await page.locator('.save-status[data-save-state="saved"]').waitFor();
    await expect.poll(() => statusText(page, '.save-status [role="status"]')).toBe(frame.save_status.saved);
    const announced = await page.evaluate(() => (window as unknown as { announced: string[] }).announced.filter(Boolean));
    expect(new Set(announced)).toEqual(new Set([frame.save_status.saved]));
    // the visible words are in the accessibility tree
    expect(await page.locator('.save-status-text').evaluate((element) => element.closest('[aria-hidden="true"]'))).toBeNull();
    // at 320 px the status wraps under the title with room before the required note (it touched it)
    await api.put('/api/last-page', { last_page: '/education-ug' }); // else a returning applicant is taken back to /about
    await page.goto(`${env.server.url}/education-ug`);
    await page.locator('#root:not([data-drawn]) [data-page="education-ug"]').waitFor();
    await page.setViewportSize(SMALL);
    await page.locator('.save-status[data-save-state="saved"]').waitFor();
    const gap = await page.evaluate(() => {
      const title = document.querySelector('#page-title')!.getBoundingClientRect();
      const status = document.querySelector('.save-status-text')!.getBoundingClientRect();
      const note = document.querySelector('.required-note')!.getBoundingClientRect();
      return { wrapped: status.top >= title.bottom, beforeNote: note.top - status.bottom };
    });
    expect(gap.wrapped, JSON.stringify(gap)).toBe(true);
    expect(gap.beforeNote).toBeGreaterThanOrEqual(6);
    await page.context().close();
  });
});

describe('what a screen-reader or phone user trips on besides', () => {
  it('the skip link lands on the page heading; the first heading is the h1; a pasted code loses its spaces; the password rules are read', async () => {
    const page = await anonymousPage('/about');
    expect(await page.evaluate(() => document.querySelector('h1, h2, h3')?.tagName)).toBe('H1');
    await page.keyboard.press('Tab');
    expect((await focusStop(page))?.name).toBe(frame.skip_link);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'page-title');
    expect(await page.locator('#page-title').evaluate((heading) => heading.getBoundingClientRect().top)).toBeLessThan(200);
    await page.context().close();

    const confirm = await anonymousPage('/confirm');
    await tabTo(confirm, byId('field-code'));
    await confirm.keyboard.insertText(' 123456 '); // as a paste from an e-mail
    expect(await confirm.locator('#field-code').inputValue()).toBe('123456');
    await confirm.context().close();

    const signup = await anonymousPage('/signup');
    await tabTo(signup, byId('field-password'));
    await signup.keyboard.type('abc');
    // while typing the description stays as it was when the field took the focus (a changed
    // description is read again whole); what a key met is said once, by itself
    expect(await focusedDescription(signup)).not.toContain('(not yet)');
    await expect.poll(() => signup.locator('.account-field [role="status"]').textContent()).toMatch(/^At least one lowercase letter\u00a0\(done\)/);
    await signup.keyboard.press('Shift+Tab');
    await signup.keyboard.press('Tab');
    const description = await focusedDescription(signup);
    expect(description).toContain('Password requirements:');
    expect(description).toMatch(/At least \d+ characters.*\(not yet\)/);
    await signup.context().close();
  });

  it('address blocks and repeated answers are named groups; parent fields do not take the applicant\'s autofill', async () => {
    const { page, api } = await signedIn('/about');
    await api.put('/api/answer', { mailing_addr_same_as_perm_addr: 'N', parent_addr_same_as_stu_perm: 'N' });
    await page.reload();
    for (const name of ['Mailing address', 'Address of Parent/Guardian 1']) await page.getByRole('group', { name, exact: true }).waitFor();
    const autocomplete = (id: string) => page.locator(`#${id}`).getAttribute('autocomplete');
    expect(await autocomplete('mailing_address_line_1')).toBe('section-mailing address-line1');
    expect(await autocomplete('address_line_1')).toBe('address-line1');
    for (const id of ['parent_address_line_1', 'parent_city', 'parent_zip', 'parent_phone']) expect(await autocomplete(id), id).toBe('off');

    await api.put('/api/last-page', { last_page: '/education-ug' }); // else a returning applicant is taken back to /about
    await page.goto(`${env.server.url}/education-ug`);
    for (const name of ['Class 1', 'Honor or award 1']) await page.getByRole('group', { name, exact: true }).waitFor();
    await page.context().close();
  });

  it('an added class can be removed by keyboard, after a question; the next one moves up', async () => {
    const { page, api } = await signedIn('/education-ug');
    await api.put('/api/add-another', { button_id: 'add_class', num_components: 2 });
    await api.put('/api/answer', { hs_class_name: 'Biology', hs_2_class_name: 'Calculus' });
    await page.reload();
    await expect.poll(() => page.locator('#hs_2_class_name').inputValue()).toBe('Calculus');
    await tabTo(page, byName(frame.repeater_remove.button.replace('{item}', 'Class 1')));
    await page.keyboard.press('Enter');
    const ask = page.getByRole('alertdialog', { name: frame.repeater_remove.title.replace('{item}', 'Class 1') });
    await ask.waitFor();
    await page.waitForFunction((keep) => document.activeElement?.textContent === keep, frame.repeater_remove.keep);
    await phoneShots(page, 'remove-question');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'hs_class_name');
    expect(await page.locator('#hs_class_name').inputValue()).toBe('Calculus');
    expect(await page.locator('#hs_2_class_name').count()).toBe(0);
    await page.locator('[role="status"]', { hasText: frame.repeater_remove.done.replace('{item}', 'Class 1') }).waitFor();
    await expect.poll(async () => (await api.get<Record<string, number>>('/api/add-another')).body.add_class).toBe(1);
    await expect.poll(async () => (await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer.hs_class_name, { timeout: 15_000 }).toBe('Calculus');
    await page.context().close();
  });

  it('the school look-up says what it filled; the account button opens a dialog, not a menu', async () => {
    const { page } = await signedIn('/education-ug');
    await tabTo(page, byId('home_schooled'), { max: 40 });
    await page.keyboard.press('ArrowDown'); // "No": the school search shows
    await page.locator('#hs_name[role="combobox"]').waitFor();
    await tabTo(page, byId('hs_name'), { max: 3 });
    await page.keyboard.type('LINCOLN HS');
    await page.locator('#hs_name-suggestions [role="option"]', { hasText: 'LINCOLN, NE' }).first().waitFor(); // a school, not only "Use: ..."
    await page.keyboard.press('ArrowDown'); // the first suggestion
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#hs_city').inputValue(), { timeout: 15_000 }).not.toBe('');
    const place = (await Promise.all(['hs_name', 'hs_city', 'hs_state'].map((id) => page.locator(`#${id}`).inputValue()))).join(', ');
    await page.locator('[role="status"]', { hasText: lookupText.school_filled.replace('{place}', place) }).waitFor();

    const account = await tabTo(page, (stop) => stop.region === 'header' && /Account/.test(stop.name), { backwards: true, max: 40 });
    expect(await page.locator('.account-button').getAttribute('aria-haspopup'), account.name).toBe('dialog');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: frame.account_popover.title }).waitFor();
    // the focus goes in two frames after the popover shows (src/client/lib/overlay-focus.ts)
    await expect.poll(async () => (await focusStop(page))?.region).toBe('popover');
    await page.context().close();
  });

  it('an anonymous visitor with answers hears that a step link leads to Sign Up', async () => {
    const page = await anonymousPage('/about');
    await tabTo(page, byId('first_name'), { max: 30 });
    await page.keyboard.type('Ada');
    await tabTo(page, (stop) => stop.region === 'nav' && stop.name.includes('Your Education'), { backwards: true, max: 30 });
    expect(await focusedDescription(page)).toBe(frame.steps_signup_note);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${env.server.url}/signup`);
    await page.context().close();
  });
});
