import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import errors from '../../schemas/text/errors.json';
import authMessages from '../../schemas/auth/messages.json';
import frame from '../../schemas/text/frame.json';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { axeViolations } from '../helpers/axe.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

/**
 * A 1-minute timeout: the warning shows after 30 s (half the timeout when it is under 2
 * minutes). The tests move the page's clock, so it costs no real time, and a busy machine
 * has half a minute of margin between loading the page and freezing its clock.
 */
const TIMEOUT_MS = 60_000;
let server: TestServer;
let browser: Browser;
let counter = 0;

beforeAll(async () => {
  server = await startTestServer({ env: { INACTIVITY_TIMEOUT_MS: String(TIMEOUT_MS) } });
  browser = await workerBrowser();
});

afterAll(async () => {
  await closeContexts(browser);
  await server?.close();
});

/**
 * A logged-in page whose clock the test moves: the inactivity timers run when the test says,
 * so a busy machine cannot race them (the page's own time is frozen between steps).
 */
async function loggedInPage(): Promise<Page> {
  const api = await createConfirmedApplicant(server.app, `idle${++counter}@example.org`);
  const context = await browser.newContext();
  await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
  const { page } = await openPage(context);
  await page.clock.install();
  await page.goto(`${server.url}/about`);
  await page.getByRole('heading', { level: 1, name: 'About You' }).waitFor();
  return page;
}

async function freeze(page: Page): Promise<void> {
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
}

/**
 * Idle until the warning shows, on the frozen clock; then time flows again (the dialog's
 * transitions run on timers), with half the timeout left before the logout.
 */
async function idleUntilWarned(page: Page) {
  const dialog = page.getByRole('alertdialog', { name: frame.inactivity.title });
  await freeze(page);
  await page.clock.runFor(TIMEOUT_MS / 2 + 1000);
  await dialog.waitFor();
  await page.clock.resume();
  return dialog;
}

describe('inactivity in Chromium', () => {
  it('warns before the timeout; "Yes" keeps the applicant in, doing nothing logs out', async () => {
    const page = await loggedInPage();
    const dialog = await idleUntilWarned(page);
    await screenshot(page, 'inactivity-warning');
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await dialog.getByRole('button', { name: frame.inactivity.stay }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(page.url()).toBe(`${server.url}/about`);

    // no activity now: warned again, then logged out with the spec's message
    await idleUntilWarned(page);
    await freeze(page);
    await page.clock.runFor(TIMEOUT_MS / 2);
    await page.clock.resume();
    await page.waitForURL(`${server.url}/login`);
    await page.locator('.bp6-toast', { hasText: errors.inactivity_logout }).waitFor();
    const profile = await page.evaluate(async () => (await fetch('/api/profile')).status);
    expect(profile).toBe(401);
    await page.context().close();
  });

  it('"No - Please log me out" logs out at once', async () => {
    const page = await loggedInPage();
    const dialog = await idleUntilWarned(page);
    await dialog.getByRole('button', { name: frame.inactivity.logout }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.locator('.bp6-toast.bp6-intent-success', { hasText: authMessages.logout_success }).waitFor();
    expect(await page.evaluate(async () => (await fetch('/api/profile')).status)).toBe(401);
    await page.context().close();
  });

  it('activity returns to active and keeps the session', async () => {
    const page = await loggedInPage();
    await freeze(page);
    for (let step = 0; step < 8; step++) {
      await page.mouse.move(10 + step * 20, 200);
      await page.clock.runFor(TIMEOUT_MS / 6);
    }
    expect(page.url()).toBe(`${server.url}/about`);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await page.context().close();
  });

  it('logs out on the first activity after a sleep longer than the timeout (the 15-minute rule)', async () => {
    const page = await loggedInPage();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + TIMEOUT_MS * 3); // timers frozen, as on a sleeping laptop
    await page.mouse.move(300, 300);
    await page.waitForURL(`${server.url}/login`);
    await page.context().close();
  });

  it('does not track an anonymous visitor', async () => {
    const context = await browser.newContext();
    const { page } = await openPage(context);
    await page.clock.install();
    await page.goto(`${server.url}/about`);
    await page.getByRole('heading', { level: 1, name: 'About You' }).waitFor();
    await freeze(page);
    await page.clock.runFor(TIMEOUT_MS * 2);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(page.url()).toBe(`${server.url}/about`);
    await context.close();
  });
});
