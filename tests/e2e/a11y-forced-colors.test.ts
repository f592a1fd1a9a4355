import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { axeViolations } from '../helpers/axe.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import { byId, focusStop, tabTo } from '../helpers/keyboard.ts';

/**
 * Forced colours (a Windows contrast theme), as Chromium emulates them: radio buttons, check
 * boxes and what is chosen in them, the edges of text boxes and lists, and the chosen tab are
 * drawn in system colours. The screenshot (test-results/screenshots) is the one looked at.
 */
const env = useServerAndBrowser();

interface Drawn {
  border: string;
  borderColor: string;
  background: string;
}

/** How an element is drawn: its top border and its background. */
const drawn = (page: Page, selector: string): Promise<Drawn> => page.locator(selector).first().evaluate((element) => {
  const style = getComputedStyle(element);
  return { border: `${style.borderTopStyle} ${style.borderTopWidth}`, borderColor: style.borderTopColor, background: style.backgroundColor };
});

const TRANSPARENT = /rgba\(0, 0, 0, 0\)|transparent/;

function expectEdge(what: string, shown: Drawn): void {
  expect(shown.border, what).not.toMatch(/^none|^hidden| 0px$/);
  expect(shown.borderColor, what).not.toMatch(TRANSPARENT);
}

describe('forced colours', () => {
  it('Your Education draws its radios, check boxes, text boxes and chosen tab', async () => {
    const api = await createConfirmedApplicant(env.server.app, 'contrast@example.org');
    await api.put('/api/answer', { home_schooled: 'N', hs_name: 'Central High School', hs_class_name: 'Biology', hs_ap: true });
    await api.put('/api/last-page', { last_page: '/education-ug' });
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: env.server.url })));
    const { page } = await openPage(context);
    await page.emulateMedia({ forcedColors: 'active' });
    await page.goto(`${env.server.url}/education-ug`);
    await page.locator('#root:not([data-drawn]) [data-page="education-ug"]').waitFor();
    await expect.poll(() => page.locator('#hs_class_name').inputValue()).toBe('Biology');
    expect(await page.evaluate(() => matchMedia('(forced-colors: active)').matches)).toBe(true);

    // by keyboard: a radio is reached and chosen, and its ring shows
    await tabTo(page, byId('test_taken_ind'), { max: 80 });
    await page.keyboard.press('Space');
    expect((await focusStop(page))?.ringVisible).toBe(true);
    await screenshot(page, 'forced-colors-education');

    const radio = '.bp6-radio input:not(:checked) ~ .bp6-control-indicator';
    const chosenRadio = '.bp6-radio input:checked ~ .bp6-control-indicator';
    const box = '.bp6-checkbox input:not(:checked) ~ .bp6-control-indicator';
    const tickedBox = '.bp6-checkbox input:checked ~ .bp6-control-indicator';
    for (const selector of [radio, chosenRadio, box, tickedBox]) expectEdge(selector, await drawn(page, selector));
    // what is chosen looks different from what is not, and its mark is drawn
    expect((await drawn(page, chosenRadio)).background).not.toBe((await drawn(page, radio)).background);
    expect((await drawn(page, tickedBox)).background).not.toBe((await drawn(page, box)).background);
    const dot = await page.locator(chosenRadio).first().evaluate((element) => getComputedStyle(element, '::before').backgroundColor);
    expect(dot).not.toBe((await drawn(page, chosenRadio)).background);
    const tick = await page.locator(tickedBox).first().evaluate((element) => getComputedStyle(element, '::before').maskImage);
    expect(tick).toContain('svg');

    expectEdge('text box', await drawn(page, '#hs_name'));
    expectEdge('list', await drawn(page, '#hs_country'));
    expectEdge('chosen tab', await page.locator('[role="tab"][aria-selected="true"]').first().evaluate((element) => {
      const style = getComputedStyle(element);
      return { border: `${style.borderBottomStyle} ${style.borderBottomWidth}`, borderColor: style.borderBottomColor, background: style.backgroundColor };
    }));
    // axe measures contrast from the page's own colours, which a contrast theme replaces: it runs without
    await page.emulateMedia({ forcedColors: 'none' });
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await context.close();
  });
});
