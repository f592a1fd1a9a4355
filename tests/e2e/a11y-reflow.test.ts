import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStop, tour, type StopReport } from '../helpers/a11y-tour.ts';
import { launchBrowser, openPage, screenshot } from '../../support/browser.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

/**
 * Reflow (WCAG 1.4.10): 320 CSS px wide (a 1280 px window at 400 % zoom) and 640 x 400
 * (the same window at 200 %), every route in every state of the tour. Nothing may need
 * horizontal scrolling: document.documentElement.scrollWidth never exceeds clientWidth.
 * axe (strict) runs there too: the layout that folds must keep its contrast and targets.
 */
let server: TestServer;
let idleServer: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  idleServer = await startTestServer({ env: { INACTIVITY_TIMEOUT_MS: '60000' } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await idleServer?.close();
});

function problems(reports: StopReport[]): string[] {
  return reports.flatMap((report) => [
    ...(report.overflow > 0 ? [`${report.name}: ${report.overflow}px of horizontal scrolling: ${report.wide.join(', ')}`] : []),
    ...report.violations.map((violation) => `${report.name}: ${violation.id} ${violation.help}: ${violation.nodes.slice(0, 4).join(' | ')}`),
  ]);
}

describe('reflow without horizontal scrolling', () => {
  it('at 320 x 640 and at 640 x 400 CSS px', async () => {
    const reports: StopReport[] = [];
    await tour({
      browser, server, idleServer, viewports: [{ width: 320, height: 640 }, { width: 640, height: 400 }],
      visit: async ({ page, name, viewport }) => { reports.push(await checkStop(page, `${name} at ${viewport.width} x ${viewport.height}`)); },
    });
    expect(reports.length).toBeGreaterThanOrEqual(2 * 33);
    expect(problems(reports)).toEqual([]);
  }, 420_000);

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
