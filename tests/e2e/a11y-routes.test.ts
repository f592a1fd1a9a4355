import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStop, tour, type StopReport } from '../helpers/a11y-tour.ts';
import { launchBrowser } from '../../support/browser.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

/**
 * axe-core in strict mode (every impact of the WCAG 2.2 A and AA rules) on every route in
 * every state the tests reach, on a desktop and on a phone 375 px wide. The phone stops are
 * saved as screenshots (test-results/screenshots/phone-*.png) for a person to look at.
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

function failures(reports: StopReport[]): string[] {
  return reports.flatMap((report) => [
    ...report.violations.map((violation) => `${report.name}: ${violation.id} (${violation.impact}) ${violation.help}: ${violation.nodes.slice(0, 4).join(' | ')}`),
    ...(report.overflow > 0 ? [`${report.name}: ${report.overflow}px of horizontal scrolling: ${report.wide.join(', ')}`] : []),
  ]);
}

describe('WCAG 2.2 AA on every route and state (axe-core, strict)', () => {
  it('on a desktop, 1280 x 800, and on a phone, 375 x 740, with a screenshot of each phone stop', async () => {
    const reports: StopReport[] = [];
    await tour({
      browser, server, idleServer, viewports: [{ width: 1280, height: 800 }, { width: 375, height: 740 }],
      visit: async ({ page, name, viewport }) => {
        const phone = viewport.width < 400;
        reports.push(await checkStop(page, `${name} at ${viewport.width}px`, phone ? { screenshotAs: `phone-375-${name}` } : {}));
      },
    });
    expect(reports.length).toBeGreaterThanOrEqual(2 * 33);
    expect(failures(reports)).toEqual([]);
  }, 420_000);
});
