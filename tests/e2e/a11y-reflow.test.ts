import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import frame from '../../schemas/text/frame.json';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { checkStop } from '../helpers/a11y-tour.ts';
import { byName, focusStop, tabTo } from '../helpers/keyboard.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

/**
 * Reflow (WCAG 1.4.10) and text resizing (1.4.4, 1.4.12) where the layout is tightest: the
 * text at 200 % and the text spacing of 1.4.12, on the pages and in the popover and file
 * chooser. Nothing may need horizontal scrolling (document.documentElement.scrollWidth never
 * exceeds clientWidth) and axe (strict) still passes. Every state at 320 and 640 px is in
 * a11y-routes.test.ts, whose one tour checks it at each size.
 */
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await workerBrowser();
});

afterAll(async () => {
  await closeContexts(browser);
  await server?.close();
});

describe('reflow without horizontal scrolling', () => {
  it('with the text alone at 200 % (the browser\'s default font size doubled), on a laptop and on a phone', async () => {
    const found: string[] = [];
    for (const viewport of [{ width: 1280, height: 800 }, { width: 375, height: 740 }]) {
      const context = await browser.newContext({ viewport });
      const { page } = await openPage(context);
      for (const path of ['/about', '/education-ug', '/final-steps', '/signup', '/login', '/confirm']) {
        await page.goto(`${server.url}${path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        // what "font size: very large" does: 1rem becomes 32 px
        await page.evaluate(() => document.documentElement.style.setProperty('font-size', '32px', 'important'));
        const report = await checkStop(page, `${path.slice(1)}-text-200`);
        if (report.overflow > 0) found.push(`${viewport.width}px ${path}: ${report.overflow}px sideways: ${report.wide.join(', ')}`);
        // text is not cut off: no element hides what it holds
        const clipped = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('h1, h2, h3, label, legend, p, a, .bp6-button-text')]
          .filter((element) => element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'visible')
          .map((element) => element.textContent?.trim().slice(0, 30)));
        found.push(...clipped.map((text) => `${viewport.width}px ${path}: "${text}" is cut off`));
        if (viewport.width === 375) await screenshot(page, `phone-375-text-200-${path.slice(1)}`);
      }
      await context.close();
    }
    expect(found).toEqual([]);
  }, 120_000);
});

/** What "font size: very large" does: 1rem becomes 32 px (200 %). */
const largeText = (page: Page) => page.evaluate(() => document.documentElement.style.setProperty('font-size', '32px', 'important'));

/**
 * The text spacing of WCAG 1.4.12 (the bookmarklet's values), set as a constructed style
 * sheet: the pages' Content-Security-Policy refuses an inline <style>, as it would refuse
 * the bookmarklet's, while a person's own style sheet still applies.
 */
const TEXT_SPACING = '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }';
const textSpacing = (page: Page) => page.evaluate((css) => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}, TEXT_SPACING);

/** How far the element sticks out of the window, left or right, in CSS px (0: it fits). */
const outside = (page: Page, selector: string) => page.locator(selector).first().evaluate((element) => {
  const box = element.getBoundingClientRect();
  return Math.max(0, -box.left, box.right - document.documentElement.clientWidth);
});

describe('large text and text spacing on the smallest screens', () => {
  it('the Account popover fits 375 px with the text at 200 %, opened from the keyboard, anonymous and logged in', async () => {
    const api = await createConfirmedApplicant(server.app, 'popover-large-text@example.org');
    for (const who of ['anonymous', 'logged-in'] as const) {
      const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
      if (who === 'logged-in') await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
      const { page } = await openPage(context);
      await page.goto(`${server.url}/about`);
      await page.locator('#root:not([data-drawn]) [data-page="about"]').waitFor();
      await largeText(page);
      // the skip link stays out of sight until it is focused, however tall the large text makes it
      expect(await page.locator('.skip-link').evaluate((link) => link.getBoundingClientRect().bottom)).toBeLessThanOrEqual(0);
      await tabTo(page, byName(frame.header.account_button), { max: 4 });
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: frame.account_popover.title }).waitFor();
      await expect.poll(async () => (await focusStop(page))?.region).toBe('popover');
      const report = await checkStop(page, `account popover ${who}`, { screenshotAs: `phone-375-text-200-account-popover-${who}` });
      expect(await outside(page, '.account-popover')).toBe(0);
      expect(report.overflow, report.wide.join(', ')).toBe(0);
      expect(report.violations).toEqual([]);
      await context.close();
    }
  }, 120_000);

  it('the file chooser reflows at 320 px with the text spacing of WCAG 1.4.12, and so does every page', async () => {
    const api = await createConfirmedApplicant(server.app, 'file-text-spacing@example.org');
    await api.put('/api/last-page', { last_page: '/final-steps' });
    const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
    await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
    const { page } = await openPage(context);
    await page.goto(`${server.url}/final-steps`);
    await page.locator('#root:not([data-drawn]) [data-page="final-steps"]').waitFor();
    await textSpacing(page);
    const chooser = await tabTo(page, (stop) => stop.type === 'file', { max: 60 });
    expect(await outside(page, `.file-question:has(#${chooser.id}) .bp6-file-input`)).toBe(0);
    const report = await checkStop(page, 'final-steps with text spacing', { screenshotAs: 'reflow-320-text-spacing-final-steps' });
    expect(report.overflow, report.wide.join(', ')).toBe(0);
    expect(report.violations).toEqual([]);
    await page.locator(`#${chooser.id}`).evaluate((input) => input.closest('.file-question')!.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'reflow-320-text-spacing-file-chooser', { fullPage: false });

    const found: string[] = [];
    for (const path of ['/about', '/education-ug', '/signup', '/login']) {
      if (path === '/signup') await context.clearCookies();
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await textSpacing(page);
      const stop = await checkStop(page, `${path} with text spacing`);
      if (stop.overflow > 0) found.push(`${path}: ${stop.overflow}px sideways: ${stop.wide.join(', ')}`);
      found.push(...stop.violations.map((violation) => `${path}: ${violation.id}`));
    }
    expect(found).toEqual([]);
    await context.close();
  }, 120_000);
});
