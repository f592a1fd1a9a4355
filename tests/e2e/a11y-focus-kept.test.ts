import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import documentsText from '../../schemas/documents.json';
import a11y from '../../schemas/text/accessibility.json';
import frame from '../../schemas/text/frame.json';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { type ApiSession } from '../../support/api-session.ts';
import { axeViolations } from '../helpers/axe.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import { activeDescription, byId, byName, focusStop, tabTo } from '../helpers/keyboard.ts';
import { signedInPage } from '../../support/signed-in-page.ts';

/**
 * The focus never falls to the page (WCAG 2.4.3) after "Clear answer", while a PDF copy is
 * prepared, after a refused "Add another", and after the inactivity logout: each is driven
 * by the keyboard alone, and the focus is then on something that says where the applicant is.
 */
const TIMEOUT_MS = 60_000;
const env = useServerAndBrowser({ env: { INACTIVITY_TIMEOUT_MS: String(TIMEOUT_MS) } });
let counter = 0;

async function signedIn(path: string, answers: Record<string, string | boolean> = {}, options: { clock?: boolean } = {}): Promise<{ page: Page; api: ApiSession }> {
  const lastPage = path !== '/about' && path !== '/completion' ? path : undefined;
  return signedInPage(env.browser, env.server, { email: `focus${++counter}@example.org`, answers, lastPage }, options);
}

async function open(page: Page, path: string): Promise<void> {
  await page.goto(`${env.server.url}${path}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}

const statusTexts = (page: Page) => page.locator('[role="status"]').evaluateAll((nodes) => nodes.map((node) => node.textContent ?? ''));

describe('the focus stays where the applicant is', () => {
  it('"Clear answer": the focus goes to the question\'s first choice', async () => {
    const { page } = await signedIn('/about', { parent_phone_type: 'C' });
    await open(page, '/about');
    await tabTo(page, byId('parent_phone_type'), { max: 250 }); // the chosen radio: Cell, the first
    await tabTo(page, byName(a11y.clear_choice), { max: 2 });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('input[name="parent_phone_type"]:checked').count()).toBe(0);
    expect(await activeDescription(page)).toBe('#parent_phone_type');
    await page.context().close();
  });

  it('"Download a PDF copy": the button keeps the focus, says the copy is being prepared, and its being ready is announced', async () => {
    const { page, api } = await signedIn('/completion', completeApplication());
    expect((await api.post('/api/submit')).status).toBe(200);
    // the copy is held as being made until the test lets it be ready
    let ready = false;
    await page.route((url) => url.pathname === '/api/pdf', (route) => route.fulfill({
      status: 200, contentType: 'application/json',
      body: JSON.stringify(ready ? { status: 'COMPLETED', url: '/api/pdf-ready-for-test' } : { status: 'IN_PROGRESS' }),
    }));
    await page.route((url) => url.pathname === '/api/pdf-ready-for-test', (route) => route.fulfill({
      status: 200, contentType: 'application/pdf', headers: { 'content-disposition': 'attachment; filename="application.pdf"' }, body: '%PDF-1.4\n%%EOF\n',
    }));
    await open(page, '/completion');
    await tabTo(page, byName(documentsText.messages.download_pdf), { max: 60 });
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focusStop(page))?.name).toBe(documentsText.messages.preparing_pdf);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-disabled'))).toBe('true');
    expect(await statusTexts(page)).toContain(documentsText.messages.preparing_pdf);
    // pressed again while it is prepared: nothing new starts, the focus stays
    await page.keyboard.press('Enter');
    expect((await focusStop(page))?.name).toBe(documentsText.messages.preparing_pdf);

    const download = page.waitForEvent('download');
    ready = true;
    await download;
    await expect.poll(() => statusTexts(page)).toContain(documentsText.messages.pdf_ready);
    await expect.poll(async () => (await focusStop(page))?.name).toBe(documentsText.messages.download_pdf);
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await page.context().close();
  });

  it('a refused "Add another": the focus goes back to the button', async () => {
    const { page } = await signedIn('/education-ug');
    await open(page, '/education-ug');
    await page.route('**/api/add-another', (route) => (route.request().method() === 'PUT'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' })
      : route.continue()));
    await tabTo(page, byName('Add another honor or award'), { max: 150 });
    await page.keyboard.press('Enter');
    await page.locator('.app-toaster .bp6-toast.bp6-intent-danger').waitFor();
    await expect.poll(async () => (await focusStop(page))?.name).toBe('Add another honor or award');
    await page.context().close();
  });

  it('the inactivity logout: the login page\'s heading takes the focus', async () => {
    const { page } = await signedIn('/about', {}, { clock: true });
    await open(page, '/about');
    await tabTo(page, byId('first_name'), { max: 80 }); // the applicant was working, then left
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    await page.clock.runFor(TIMEOUT_MS / 2 + 1000);
    await page.getByRole('alertdialog', { name: frame.inactivity.title }).waitFor();
    await page.clock.runFor(TIMEOUT_MS / 2);
    await page.clock.resume();
    await page.waitForURL(`${env.server.url}/login`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    // and it stays there once every transition has ended (a closing dialog gives no focus back)
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await page.context().close();
  });
});
