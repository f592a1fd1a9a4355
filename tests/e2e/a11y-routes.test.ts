import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStop, tour, type StopReport } from '../helpers/a11y-tour.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

/**
 * axe-core in strict mode (every impact of the WCAG 2.2 A and AA rules) on every route in
 * every state the tests reach, on a desktop, on a phone 375 px wide, and at the two sizes of
 * reflow (WCAG 1.4.10): 320 CSS px wide (a 1280 px window at 400 % zoom) and 640 x 400 (the
 * same window at 200 %). Nothing may need horizontal scrolling at any of them. One tour
 * reaches each state once and resizes the open page, as a zoom does. The phone stops are
 * saved as screenshots (test-results/screenshots/phone-*.png) for a person to look at.
 */
let server: TestServer;
let idleServer: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  idleServer = await startTestServer({ env: { INACTIVITY_TIMEOUT_MS: '60000' } });
  browser = await workerBrowser();
});

afterAll(async () => {
  await closeContexts(browser);
  await server?.close();
  await idleServer?.close();
});

function failures(reports: StopReport[]): string[] {
  return reports.flatMap((report) => [
    ...report.violations.map((violation) => `${report.name}: ${violation.id} (${violation.impact}) ${violation.help}: ${violation.nodes.slice(0, 4).join(' | ')}`),
    ...(report.overflow > 0 ? [`${report.name}: ${report.overflow}px of horizontal scrolling: ${report.wide.join(', ')}`] : []),
  ]);
}

describe('WCAG 2.2 AA on every route and state (axe-core, strict)', () => {
  it('on a desktop (1280 x 800), a phone (375 x 740) and reflowed (320 x 640, 640 x 400), with a screenshot of each phone stop', async () => {
    const reports: StopReport[] = [];
    const viewports = [{ width: 1280, height: 800 }, { width: 375, height: 740 }, { width: 320, height: 640 }, { width: 640, height: 400 }];
    await tour({
      browser, server, idleServer, viewports,
      visit: async ({ page, name, viewport }) => {
        const phone = viewport.width === 375;
        reports.push(await checkStop(page, `${name} at ${viewport.width} x ${viewport.height}`, phone ? { screenshotAs: `phone-375-${name}` } : {}));
      },
    });
    expect(reports.length).toBeGreaterThanOrEqual(viewports.length * 33);
    expect(failures(reports)).toEqual([]);
  }, 840_000);
});
