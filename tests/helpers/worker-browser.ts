import type { Browser } from 'playwright-core';
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH, HEADLESS_SHELL_PATH, launchBrowser } from '../../support/browser.ts';
import { countUnit } from '../../support/test-units.ts';

/**
 * One Chromium for all the files a Vitest worker runs (they share its module cache,
 * `isolate: false`), instead of one per file: a launch costs about 0.7 s of CPU, and a file
 * needs only fresh contexts, which hold its cookies and storage apart from the next file's.
 * This is the one state kept at a shared module's top level on purpose. A file takes it with
 * `workerBrowser()` and, when done, closes what it opened with `closeContexts()`, never the
 * browser. Chromium ends with the worker: Playwright kills what it launched as its process exits.
 */
let launched: Promise<Browser> | undefined;

/** The headless shell unless the full browser is asked for (TEST_BROWSER=full) or the shell is missing. */
const testBrowserPath = () => (process.env.TEST_BROWSER !== 'full' && existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH);

export function workerBrowser(): Promise<Browser> {
  launched ??= launchBrowser({ executablePath: testBrowserPath() }).then(
    (browser) => {
      // a crashed or closed browser is launched again for the next file
      browser.once('disconnected', () => { launched = undefined; });
      countContexts(browser);
      return browser;
    },
    (error: unknown) => {
      launched = undefined;
      throw error;
    },
  );
  return launched;
}

/** Each context a file opens is counted (support/test-units.ts): Playwright tells of no new context, so its maker does. */
function countContexts(browser: Browser): void {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (...options) => {
    countUnit('browser context');
    return newContext(...options);
  };
}

/** Closes every context (and so every page) a file left open in the worker's browser. */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return;
  await Promise.all(browser.contexts().map((context) => context.close()));
}
