/**
 * More places where a person filling the form stumbled, tried in Chromium: the transcript tab
 * with no file, a reset link cut short, a session that has ended, schools and colleges
 * abroad, the CLT code, activity while the inactivity warning is up, and an error inside a
 * dialog.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import reset from '../../schemas/auth/reset.json';
import partner from '../../schemas/partner.json';
import errors from '../../schemas/text/errors.json';
import frame from '../../schemas/text/frame.json';
import { form } from '../../src/shared/form/form-model-data.ts';
import pageMessages from '../../src/shared/generated/page-messages.json';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { axeViolations } from '../helpers/axe.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { makePdf } from '../../support/document-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

/** A 1-minute inactivity timeout: the warning shows after 30 s of the page's own (moved) clock. */
const TIMEOUT_MS = 60_000;
let server: TestServer;
let browser: Browser;
let applicants = 0;
const folder = mkdtempSync(join(tmpdir(), 'stumbles-more-'));

beforeAll(async () => {
  server = await startTestServer({ env: { INACTIVITY_TIMEOUT_MS: String(TIMEOUT_MS) } });
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
});

const field = (page: Page, key: string) => page.locator(`[data-field-key="${key}"]`);

/**
 * A logged-in applicant with these answers on `path`, its page's clock installed (the
 * inactivity warning comes only when a test moves it) and `status` posted.
 */
async function applicantOn(path: string, answers: Record<string, string | boolean>, status: 'started' | 'validating' = 'started'): Promise<{ api: ApiSession; page: Page; close(): Promise<void> }> {
  const api = await createConfirmedApplicant(server.app, `stumbles-more-${++applicants}@example.org`);
  expect((await api.put('/api/answer', answers)).status).toBe(200);
  await api.post('/api/web-status', { web_status: 'started' });
  if (status === 'validating') await api.post('/api/web-status', { web_status: 'validating' });
  const context = await browser.newContext();
  await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
  const { page } = await openPage(context, { expectedErrors: [/Failed to load resource/, /failed with/] });
  await page.clock.install();
  await page.goto(`${server.url}${path}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return { api, page, close: () => context.close() };
}

describe('the transcript tab with no file', () => {
  it('says the transcript is missing, and its link leads to the file input', async () => {
    const { api, page, close } = await applicantOn('/final-steps', { ...completeApplication(), hs_class_name: '' }, 'validating');
    expect((await api.put('/api/tabs', { tab_id: 'hs_classes_tabs', chosen_tab: 'transcript' })).status).toBe(200);
    await page.reload();
    const missing = form.pages['education-ug'].tabs.find((group) => group.tab_id === 'hs_classes_tabs')!.tabs.find((tab) => tab.id === 'transcript')!.missing!;
    const panel = page.locator('.missing-info');
    const link = panel.getByRole('link', { name: missing });
    await link.waitFor();
    // the message of the classes' tab, left for the transcript's
    const classesMessage = pageMessages['education-ug'].required['#/allOf/5/then']!.hs_class_name!;
    expect(await panel.getByRole('link', { name: classesMessage }).count()).toBe(0);
    await link.click();
    await page.waitForURL(/\/education-ug#hs_transcript$/);
    await page.waitForFunction(() => document.activeElement?.id === 'hs_transcript');
    expect(await page.locator('[role="tab"][aria-selected="true"]').filter({ hasText: 'Upload my transcript' }).count()).toBe(1);
    expect(await field(page, 'hs_transcript').locator('.field-error').textContent()).toContain(missing);
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });
});

describe('account pages', () => {
  it('a reset link without its query says it is not complete, never a bare {username}', async () => {
    const context = await browser.newContext();
    const { page } = await openPage(context);
    await page.goto(`${server.url}/reset`);
    await page.getByRole('heading', { level: 1, name: reset.title }).waitFor();
    const text = await page.locator('main').textContent();
    expect(text).not.toContain('{username}');
    expect(text).toContain(reset.intro_incomplete);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it('a session that has ended asks only to log in again', async () => {
    const { page, close } = await applicantOn('/about', {});
    await server.app.db.deleteFrom('sessions').execute();
    await page.reload();
    await page.waitForURL(`${server.url}/login`);
    const toast = page.locator('.bp6-toast', { hasText: errors.session_invalid });
    await toast.waitFor();
    expect(await toast.textContent()).not.toMatch(/cookie/i);
    expect(errors.session_invalid).toMatch(/log in again/);
    await close();
  });
});

describe('Your Education', () => {
  it('asks a school\'s and a college\'s country before its state, calls a college a college, and gives the CLT code', async () => {
    const { page, close } = await applicantOn('/education-ug', { ...completeApplication(), college_univ_attended: 'Y' });
    const order = async (prefix: string) => page.evaluate((keys) => {
      const all = [...document.querySelectorAll('[data-field-key]')].map((node) => node.getAttribute('data-field-key'));
      return keys.map((key) => all.indexOf(key));
    }, [`${prefix}country`, `${prefix}address_line_1`, `${prefix}state`]);
    for (const prefix of ['hs_', 'college_']) {
      const [country, address, state] = await order(prefix);
      expect(country, prefix).toBeGreaterThan(-1);
      expect(country, prefix).toBeLessThan(address!);
      expect(country, prefix).toBeLessThan(state!);
    }
    expect(await field(page, 'college_name').textContent()).toContain('Search for Your College');
    expect(await field(page, 'hs_name').textContent()).toContain('Search for Your School');
    expect(await page.locator('main').textContent()).toContain(`CLT code ${partner.test_codes.clt_code}`);
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });
});

describe('the inactivity warning', () => {
  /** Idle until the warning shows, on the page's moved clock; then time flows again (its transitions run on timers). */
  async function idleUntilWarned(page: Page) {
    const dialog = page.getByRole('alertdialog', { name: frame.inactivity.title });
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    await page.clock.runFor(TIMEOUT_MS / 2 + 1000);
    await dialog.waitFor();
    await page.clock.resume();
    return dialog;
  }

  it('goes away when the mouse moves over the page or a key is pressed (activity returns to active)', async () => {
    const { page, close } = await applicantOn('/about', {});
    await page.mouse.move(5, 5);
    let dialog = await idleUntilWarned(page);
    await page.mouse.move(30, 400, { steps: 4 }); // over the page around the warning
    await dialog.waitFor({ state: 'hidden' });
    expect(page.url()).toBe(`${server.url}/about`);

    dialog = await idleUntilWarned(page);
    await page.keyboard.press('ArrowDown');
    await dialog.waitFor({ state: 'hidden' });

    // its own keys still answer it: Tab reaches "log me out" without dismissing the warning
    dialog = await idleUntilWarned(page);
    const onLogout = () => page.evaluate((name) => document.activeElement?.textContent === name, frame.inactivity.logout);
    for (let step = 0; step < 3 && !(await onLogout()); step++) await page.keyboard.press('Tab');
    expect(await onLogout()).toBe(true);
    expect(await dialog.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/login`);
    await close();
  });
});

describe('an error inside a dialog', () => {
  it('keeps the dialog open and says "Unexpected Error" with the message in it', async () => {
    const { page, close } = await applicantOn('/final-steps', completeApplication());
    const path = join(folder, 'letter.pdf');
    writeFileSync(path, await makePdf());
    await page.locator('#supporting_document').setInputFiles(path);
    await field(page, 'supporting_document').locator('.file-name').getByText('letter.pdf').waitFor();
    const message = 'The file store did not answer. Please try again.';
    await page.route('**/api/document-answer/supporting_document', (route) => route.request().method() === 'DELETE'
      ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message, code: 'UNAVAILABLE' }) })
      : route.fallback());
    await field(page, 'supporting_document').getByRole('button', { name: /Delete/ }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: /^Delete$/ }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(errors.modal_error_title);
    expect(await alert.textContent()).toContain(message);
    expect(await dialog.isVisible()).toBe(true);
    expect(await page.locator('.bp6-toast').count()).toBe(0);
    await screenshot(page, 'dialog-unexpected-error', { fullPage: false });
    expect(await axeViolations(page)).toEqual([]);

    // tried again once the store answers: the file goes and the dialog closes
    await page.unroute('**/api/document-answer/supporting_document');
    await dialog.getByRole('button', { name: /^Delete$/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('#supporting_document').waitFor();
    await close();
  });
});
