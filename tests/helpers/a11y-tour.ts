import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import documentsText from '../../schemas/documents.json';
import frame from '../../schemas/text/frame.json';
import { signServiceToken } from '../../src/server/pdf/service-token.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { axeViolations, type AxeViolation } from './axe.ts';
import { openPage, screenshot, settle } from '../../support/browser.ts';
import { makeImage, makePdf } from '../../support/document-fixtures.ts';
import type { TestServer } from '../../support/test-server.ts';
import { conversionResult, uploadThroughApi } from '../../support/uploads.ts';

/**
 * A tour of every route in every state the end-to-end tests reach: anonymous and logged
 * in, empty and with messages, dialogs, the popover, toasts, an upload under way, the
 * missing-information panel, the inactivity warning, the completion page, the service
 * view and the root error screen. At each stop `visit` runs the checks of the caller.
 */
export interface Viewport {
  width: number;
  height: number;
}

export interface TourStop {
  page: Page;
  /** a short name: route and state, e.g. "about-validating" */
  name: string;
  viewport: Viewport;
}

export interface TourOptions {
  browser: Browser;
  server: TestServer;
  /** a server whose inactivity timeout is a few seconds, for the warning */
  idleServer: TestServer;
  /**
   * Each stop is checked at every one of these sizes: the page is reached at the first and
   * resized to the others, as a browser window is resized or zoomed (WCAG 1.4.10 is about
   * zooming a page already open), then set back for the next step of the tour.
   */
  viewports: Viewport[];
  visit(stop: TourStop): Promise<void>;
}

let counter = 0;
const screenshotDir = resolve(import.meta.dirname, '..', '..', 'test-results', 'screenshots');
const folder = mkdtempSync(join(tmpdir(), 'a11y-tour-'));

async function signedInContext(browser: Browser, server: TestServer, viewport: Viewport, email: string): Promise<{ context: BrowserContext; api: ApiSession }> {
  const api = await createConfirmedApplicant(server.app, email);
  const context = await browser.newContext({ viewport });
  await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
  return { context, api };
}

/** Follows a step link, as the last page a logged-in applicant saw is where a fresh load goes. */
async function toStep(page: Page, path: string): Promise<void> {
  await page.locator(`.step-nav a[href="${path}"]`).click();
  await page.locator(`#root:not([data-drawn]) [data-page="${path.slice(1)}"]`).waitFor();
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first().waitFor();

/** Lets a resize take effect: layout, media queries, and the popovers that follow their targets. */
async function afterResize(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await settle(page);
}

export async function tour({ browser, server, idleServer, viewports, visit: visitOne }: TourOptions): Promise<void> {
  const viewport = viewports[0]!;
  const tag = `${viewports.map(({ width }) => width).join('-')}-${++counter}`;
  const visit = async ({ page, name }: { page: Page; name: string }) => {
    for (const [index, size] of viewports.entries()) {
      if (index > 0) {
        await page.setViewportSize(size);
        await afterResize(page);
      }
      await visitOne({ page, name, viewport: size });
    }
    if (viewports.length > 1) {
      await page.setViewportSize(viewport);
      await afterResize(page);
    }
  };

  // ---- an anonymous visitor
  {
    const context = await browser.newContext({ viewport });
    const { page } = await openPage(context);
    for (const path of ['/about', '/education-ug', '/final-steps']) {
      await page.goto(`${server.url}${path}`);
      await heading(page);
      await page.locator('[data-page]').waitFor();
      await visit({ page, name: `${path.slice(1)}-anonymous` });
    }
    await page.goto(`${server.url}/about`);
    await page.locator('[data-page]').waitFor();
    await page.getByRole('button', { name: frame.footer.help }).click();
    await page.getByRole('dialog', { name: frame.help_dialog.title }).waitFor();
    await visit({ page, name: 'about-help-dialog' });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: frame.footer.privacy }).click();
    await page.getByRole('dialog', { name: frame.privacy_dialog.title }).waitFor();
    await visit({ page, name: 'about-privacy-dialog' });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: frame.header.account_button }).click();
    await page.getByRole('link', { name: frame.account_popover.create_account }).waitFor();
    await visit({ page, name: 'about-account-popover' });
    await page.keyboard.press('Escape');

    // the account pages, empty and with their messages
    for (const path of ['/signup', '/confirm', '/login', '/forgot']) {
      await page.goto(`${server.url}${path}`);
      await heading(page);
      await visit({ page, name: `${path.slice(1)}` });
      await page.locator('form button[type="submit"]').click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
      await visit({ page, name: `${path.slice(1)}-errors` });
    }
    await page.goto(`${server.url}/signup`);
    await page.locator('#field-username').fill('someone@example.org');
    await page.locator('#field-password').fill('short');
    await visit({ page, name: 'signup-checklist' });
    await page.goto(`${server.url}/reset?username=someone%40example.org&id=${'a'.repeat(64)}`);
    await heading(page);
    await page.locator('#field-password').fill('Granite-Willow-7713#');
    await page.locator('#field-confirm_password').fill('something else');
    await page.locator('form button[type="submit"]').click();
    await page.locator('[aria-invalid="true"]').first().waitFor();
    await visit({ page, name: 'reset-mismatch' });
    // a failed login: the error toast
    await page.goto(`${server.url}/login`);
    await page.locator('#field-username').fill('nobody@example.org');
    await page.locator('#field-password').fill('Whatever-1234!');
    await page.locator('form button[type="submit"]').click();
    await page.locator('.app-toaster .bp6-toast').waitFor();
    await visit({ page, name: 'login-error-toast' });
    await context.close();
  }

  // ---- the root error screen (the profile cannot be loaded)
  {
    const context = await browser.newContext({ viewport });
    await context.addCookies([{ name: 'logged_in', value: '1', url: server.url }]);
    const { page } = await openPage(context, { expectedErrors: [/./] });
    await page.route('**/api/profile', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }));
    for (const path of ['**/api/add-another', '**/api/tabs']) await page.route(path, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }));
    await page.goto(`${server.url}/about`);
    await page.locator('.root-error').waitFor();
    await visit({ page, name: 'root-error' });
    await context.close();
  }

  // ---- a logged-in applicant: the three pages with repeaters, tabs, documents and a conversion under way
  {
    const { context, api } = await signedInContext(browser, server, viewport, `tour-${tag}@example.org`);
    const { page } = await openPage(context, { expectedErrors: [/Failed to load resource/, /failed with/] });
    await api.put('/api/add-another', { button_id: 'add_honor', num_components: 2 });
    await api.put('/api/add-another', { button_id: 'add_class', num_components: 2 });
    await api.put('/api/tabs', { tab_id: 'activities_tabs', chosen_tab: 'resume' });
    await uploadThroughApi(server.app, api, 'activ_resume', 'resume-of-a-rather-long-name.png', await makeImage(browser, 'png', { width: 400, height: 300 }));
    if ((await conversionResult(api, 'activ_resume')).status !== 'COMPLETED') throw new Error('the résumé was not converted');
    await page.goto(`${server.url}/about`);
    await page.locator('#root:not([data-drawn]) [data-page="about"]').waitFor();
    await visit({ page, name: 'about-first-login' });
    await toStep(page, '/education-ug');
    await page.locator('[data-field-key="activ_resume"] [data-document-phase="done"]').waitFor({ timeout: 30_000 });
    await visit({ page, name: 'education-ug-logged-in' });
    // a conversion that stays under way: the progress, and the dialog that refuses to switch tabs
    await page.route('**/api/pdf/document-answer/hs_transcript', (route) => (route.request().method() === 'GET'
      ? route.fulfill({ status: 200, contentType: 'application/json', body: '{"status":"IN_PROGRESS"}' })
      : route.continue()));
    await page.getByRole('tab', { name: 'Upload my transcript' }).click();
    const transcript = join(folder, 'transcript.pdf');
    writeFileSync(transcript, await makePdf(['Transcript']));
    await page.locator('#hs_transcript').setInputFiles(transcript);
    await page.locator('[data-field-key="hs_transcript"] [data-document-phase="converting"]').waitFor();
    // the spinner turns for ever; with reduced motion asked for it stands still (and axe can judge colours)
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await visit({ page, name: 'education-ug-converting' });
    await page.getByRole('tab', { name: 'Enter my classes' }).click();
    await page.getByRole('dialog', { name: documentsText.messages.in_progress_title }).waitFor();
    await visit({ page, name: 'education-ug-upload-in-progress-dialog' });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    // the delete confirmation of the résumé
    await page.locator('[data-field-key="activ_resume"]').getByRole('button', { name: /Delete/ }).click();
    await page.getByRole('alertdialog').waitFor();
    await visit({ page, name: 'education-ug-delete-dialog' });
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').waitFor({ state: 'hidden' });
    await page.unroute('**/api/pdf/document-answer/hs_transcript');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await toStep(page, '/final-steps');
    await visit({ page, name: 'final-steps-logged-in' });
    await page.getByRole('button', { name: frame.header.account_button }).click();
    await page.getByRole('button', { name: frame.account_popover.log_out }).waitFor();
    await visit({ page, name: 'final-steps-account-popover' });
    await page.keyboard.press('Escape');

    // being validated: the missing-information panel and the messages on every page
    await api.post('/api/web-status', { web_status: 'started' });
    await api.post('/api/web-status', { web_status: 'validating' });
    await api.put('/api/answer', { birth_date: '1890-01-01', phone_home: '1234', zip: '12' });
    for (const path of ['/final-steps', '/education-ug', '/about']) {
      await api.put('/api/last-page', { last_page: path });
      await page.goto(`${server.url}${path}`);
      await page.locator('.missing-info').waitFor();
      await page.locator('[data-page] .field-error').first().waitFor();
      await visit({ page, name: `${path.slice(1)}-validating` });
    }
    await context.close();
  }

  // ---- submitted: /completion, and the service view of the same applicant
  {
    const email = `tour-done-${tag}@example.org`;
    const { context, api } = await signedInContext(browser, server, viewport, email);
    const { page } = await openPage(context);
    await api.put('/api/answer', completeApplication());
    const submitted = await api.post('/api/submit');
    if (submitted.status !== 200) throw new Error(`submit failed: ${JSON.stringify(submitted.body)}`);
    await page.goto(`${server.url}/completion`);
    await page.getByText(frame.completion.message).first().waitFor();
    await visit({ page, name: 'completion' });
    const applicant = await server.app.db.selectFrom('applicants').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const token = encodeURIComponent(signServiceToken(server.app.serviceSecret, applicant.id, 60_000));
    const service = await browser.newContext({ viewport });
    const { page: view } = await openPage(service);
    for (const path of ['/about', '/education-ug', '/final-steps']) {
      await view.goto(`${server.url}${path}?service_token=${token}`);
      await view.locator('.page-form-service').waitFor();
      await visit({ page: view, name: `${path.slice(1)}-service-view` });
    }
    await service.close();
    await context.close();
  }

  // ---- the inactivity warning (a server with a 6-second timeout)
  {
    const { context } = await signedInContext(browser, idleServer, viewport, `tour-idle-${tag}@example.org`);
    const { page } = await openPage(context);
    // the page's clock moves only when told: the warning is reached, and the logout never is
    await page.clock.install();
    await page.goto(`${idleServer.url}/about`);
    await heading(page);
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    await page.clock.runFor(Number(idleServer.config.inactivityTimeoutMs) / 2 + 1000);
    await page.getByRole('alertdialog', { name: frame.inactivity.title }).waitFor();
    await page.clock.resume(); // transitions run on timers; the logout is half a minute away
    await settle(page);
    await visit({ page, name: 'about-inactivity-warning' });
    await context.close();
  }
}

/** The standard checks at each stop. */
export interface StopReport {
  name: string;
  violations: AxeViolation[];
  /** document.documentElement.scrollWidth - clientWidth, when above 0 */
  overflow: number;
  /** what sticks out past the right edge, for the report */
  wide: string[];
}

export async function checkStop(page: Page, name: string, options: { screenshotAs?: string } = {}): Promise<StopReport> {
  const violations = await axeViolations(page, { strict: true });
  const { overflow, wide } = await page.evaluate(() => {
    const root = document.documentElement;
    const limit = root.clientWidth;
    const wideOnes = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => element.getBoundingClientRect().right > limit + 1 && getComputedStyle(element).position !== 'fixed')
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} (${Math.round(element.getBoundingClientRect().right)}px)`);
    return { overflow: root.scrollWidth - root.clientWidth, wide: wideOnes };
  });
  if (options.screenshotAs) {
    // a dialog or popover floats over the viewport: the picture is of the screen, not the whole page
    const floating = await page.locator('[role="dialog"], [role="alertdialog"], .bp6-popover').count();
    if (floating) await page.screenshot({ path: join(screenshotDir, `${options.screenshotAs}.png`) });
    else await screenshot(page, options.screenshotAs);
  }
  return { name, violations, overflow: Math.max(0, overflow), wide: overflow > 0 ? wide : [] };
}
