/**
 * Two figures of a form page beside plain RJSF's: "first key accepted", the time from
 * navigation until a key typed into the page's first text field shows in it (the paint
 * that shows it, by the browser's Event Timing) (a page our
 * server draws takes keys before its scripts arrive, typed-before-start.ts keeps them); and
 * a second visit's time to interactive with the HTTP cache warm from a first (hashed assets
 * immutable, the HTML revalidated, as both servers send them).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openUntilInteractive } from './bench-setup.ts';

async function throttled(context: BrowserContext, rate: number): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  return page;
}

/** From navigation to a key typed into the first text field showing in it, in a fresh context; NaN for a page with no text field. */
export async function firstKeyAccepted(browser: Browser, url: string, rate: number): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await throttled(context, rate);
    const started = Date.now();
    // not waiting for the load event: the point is what the page takes before its scripts have run
    await page.goto(url, { waitUntil: 'commit' });
    await page.locator('[data-page] input, [data-page] select').first().waitFor({ timeout: 120_000 });
    const field = page.locator('[data-page] input[type="text"]').first();
    if (!(await field.count())) return Number.NaN;
    await field.focus();
    await page.keyboard.press('x');
    await page.waitForFunction((input) => (input as HTMLInputElement).value.includes('x'), await field.elementHandle(), { polling: 'raf', timeout: 120_000 });
    // The browser's own account of the key (Event Timing: from the key's arrival to the paint
    // that showed it, since navigation began), as the look above waits for a free main thread
    // again after the key and so reads late. Our own clock when the browser keeps no entry.
    const shown = await page.evaluate(() => {
      const [entry] = performance.getEntriesByType('first-input');
      return entry ? entry.startTime + entry.duration : null;
    });
    return shown ?? Date.now() - started;
  } finally {
    await context.close();
  }
}

/** A second visit's time to interactive, the cache filled by a first visit in the same context. */
export async function warmSecondVisit(browser: Browser, url: string, rate: number): Promise<number> {
  const context = await browser.newContext();
  try {
    const first = await throttled(context, rate);
    await openUntilInteractive(first, url);
    await first.close();
    return await openUntilInteractive(await throttled(context, rate), url);
  } finally {
    await context.close();
  }
}
