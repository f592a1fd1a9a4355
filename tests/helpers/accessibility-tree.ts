import type { Page } from 'playwright-core';

/** What a screen reader is given for an element: Chromium's own computed role, name and description. */
export interface Announced {
  role: string;
  name: string;
  description: string;
}

/**
 * The focused element as the accessibility tree has it (the DevTools protocol's
 * Accessibility domain), not as our markup intends: names from content, `aria-labelledby`,
 * `aria-describedby` and hidden parts are resolved by the browser.
 */
export async function focusedAnnounced(page: Page): Promise<Announced> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'document.activeElement' });
    if (!result.objectId) throw new Error('nothing is focused');
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { objectId: result.objectId, fetchRelatives: false });
    const node = nodes[0];
    const text = (value: { value?: unknown } | undefined) => String(value?.value ?? '').replace(/\s+/g, ' ').trim();
    return { role: text(node?.role), name: text(node?.name), description: text(node?.description) };
  } finally {
    await cdp.detach();
  }
}

/** Every image in the page's accessibility tree (a decorative icon should be none of them), with its name. */
export async function imagesInTree(page: Page): Promise<string[]> {
  const tree = await page.locator('body').ariaSnapshot();
  return tree.split('\n').filter((line) => /^\s*- img\b/.test(line)).map((line) => line.trim());
}

/** The headings of the page in reading (DOM) order, as the accessibility tree has them: "h1 About You". */
export async function headingOutline(page: Page): Promise<string[]> {
  const tree = await page.locator('body').ariaSnapshot();
  return [...tree.matchAll(/- heading "([^"]*)" \[level=(\d)\]/g)].map((match) => `h${match[2]} ${match[1]}`);
}
