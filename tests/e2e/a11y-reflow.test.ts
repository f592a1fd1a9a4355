import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStop, tour, type StopReport } from '../helpers/a11y-tour.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

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
  idleServer = await startTestServer({ env: { INACTIVITY_TIMEOUT_MS: '6000' } });
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
  for (const viewport of [{ width: 320, height: 640 }, { width: 640, height: 400 }]) {
    it(`at ${viewport.width} x ${viewport.height} CSS px`, async () => {
      const reports: StopReport[] = [];
      await tour({ browser, server, idleServer, viewport, visit: async ({ page, name }) => { reports.push(await checkStop(page, name)); } });
      expect(reports.length).toBeGreaterThanOrEqual(33);
      expect(problems(reports)).toEqual([]);
    }, 300_000);
  }
});
