import { describe, expect, it } from 'vitest';
import a11y from '../../schemas/text/accessibility.json';
import frame from '../../schemas/text/frame.json';
import { openPage } from '../../support/browser.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import { byId, byName, focusStop, tabTo } from '../helpers/keyboard.ts';

/** Less for a screen reader to hear twice or wrongly: each found by ear, each checked by keyboard. */
const env = useServerAndBrowser();

async function anonymousPage(path: string) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page } = await openPage(context);
  await page.goto(`${env.server.url}${path}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  return page;
}

describe('screen reader noise', () => {
  it('a dialog is not inside a live region (it would be read twice)', async () => {
    const page = await anonymousPage('/about');
    await tabTo(page, byName(frame.footer.help), { max: 150 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: frame.help_dialog.title });
    await dialog.waitFor();
    await expect.poll(async () => (await focusStop(page))?.region).toBe('dialog');
    expect(await page.locator('[aria-live] [role="dialog"]').count()).toBe(0);
    await page.context().close();
  });

  it('"Show password" keeps its name and says by aria-pressed whether the password shows', async () => {
    const page = await anonymousPage('/login');
    await tabTo(page, byName(a11y.show_password), { max: 20 });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-pressed'))).toBe('true');
    expect((await focusStop(page))?.name).toBe(a11y.show_password);
    expect(await page.locator('#field-password').getAttribute('type')).toBe('text');
    await page.context().close();
  });

  it('a code pasted with words around it keeps its six digits', async () => {
    const page = await anonymousPage('/confirm');
    await tabTo(page, byId('field-code'), { max: 20 });
    await page.keyboard.insertText('Your code: 123456');
    await expect.poll(() => page.locator('#field-code').inputValue()).toBe('123456');
    await page.context().close();
  });
});
