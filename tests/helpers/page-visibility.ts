import type { Page } from 'playwright-core';

/**
 * The page hidden or shown again, as the browser says it when a phone switches apps or a
 * tab is switched away from: headless Chromium never hides a page itself, so the document
 * says so and tells its listeners, as the browser would.
 */
export async function setPageVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
  await page.evaluate((visibility) => {
    Object.defineProperty(document, 'visibilityState', { value: visibility, configurable: true });
    Object.defineProperty(document, 'hidden', { value: visibility === 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);
}
