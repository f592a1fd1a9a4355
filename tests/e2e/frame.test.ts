import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCESSIBILITY_STATEMENT_PATH } from '../../src/shared/accessibility-statement.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import frame from '../../schemas/text/frame.json';
import partner from '../../schemas/partner.json';
import shownBanners from '../../src/shared/generated/banners-shown.json';
import { axeViolations } from '../helpers/axe.ts';
import { openPage, screenshot } from '../../support/browser.ts';

const env = useServerAndBrowser();

describe('the page frame', () => {
  it('links every page to the accessibility statement from its footer, and the statement opens without an account', async () => {
    const context = await env.browser.newContext();
    const { page } = await openPage(context);
    for (const path of ['/about', '/login']) {
      await page.goto(`${env.server.url}${path}`);
      const link = page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: frame.footer.accessibility });
      await link.waitFor();
      await link.click();
      await page.waitForURL(`${env.server.url}${ACCESSIBILITY_STATEMENT_PATH}`);
      await expect(page.locator('body').textContent()).resolves.toContain('WCAG 2.2 level AA');
    }
    const response = await fetch(`${env.server.url}${ACCESSIBILITY_STATEMENT_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe(readFileSync(new URL('../../docs/accessibility-statement.md', import.meta.url), 'utf8'));
    await context.close();
  });

  it('shows /about inside the full frame, and every dialog opens and closes', async () => {
    const context = await env.browser.newContext();
    const { page, problems } = await openPage(context);
    await page.goto(`${env.server.url}/about`);

    await page.getByRole('heading', { level: 1, name: 'About You' }).waitFor();
    await expect(page.locator('.app-header').textContent()).resolves.toContain(partner.name);
    const steps = page.getByRole('navigation', { name: frame.steps_label }).getByRole('link');
    expect(await steps.allTextContents()).toEqual(frame.steps.map((step) => `${step.number}${step.label}`));
    await expect(page.locator('[data-welcome-state]').getAttribute('data-welcome-state')).resolves.toBe('anonymous');
    await expect(page.locator('footer').textContent()).resolves.toContain(partner.address.line_1);
    expect(await page.title()).toBe(`About You | ${partner.name}`);
    await screenshot(page, 'frame-about');
    expect(await axeViolations(page, { strict: true })).toEqual([]);

    // Help dialog
    await page.getByRole('button', { name: frame.footer.help }).click();
    const help = page.getByRole('dialog', { name: frame.help_dialog.title });
    await help.waitFor();
    expect(await help.textContent()).toContain(partner.help_email);
    expect(await help.textContent()).toContain(partner.phone);
    expect(await help.getByRole('link', { name: frame.help_dialog.pdf_link }).getAttribute('href')).toBe(partner.pdf_reader_url);
    await screenshot(page, 'frame-help-dialog');
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await help.getByRole('button', { name: frame.help_dialog.close }).last().click();
    await help.waitFor({ state: 'hidden' });

    // Privacy dialog, closed with Escape
    await page.getByRole('button', { name: frame.footer.privacy }).click();
    const privacy = page.getByRole('dialog', { name: 'Privacy Policy and Cookie Notice' });
    await privacy.waitFor();
    expect(await privacy.getByRole('link').count()).toBeGreaterThanOrEqual(frame.privacy_dialog.browser_help.length + 1);
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await page.keyboard.press('Escape');
    await privacy.waitFor({ state: 'hidden' });

    // Account popover (logged out): Sign In and Create Account
    await page.getByRole('button', { name: frame.header.account_button }).click();
    await page.getByRole('link', { name: frame.account_popover.create_account }).waitFor();
    await page.getByRole('link', { name: frame.account_popover.sign_in }).first().waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await page.getByRole('link', { name: frame.account_popover.create_account }).click();
    await page.waitForURL(`${env.server.url}/signup`);

    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('sends an unknown path to /about and keeps the query string', async () => {
    const context = await env.browser.newContext();
    const { page } = await openPage(context);
    await page.goto(`${env.server.url}/no-such-page?token=abc&x=1`);
    await page.waitForURL(`${env.server.url}/about?token=abc&x=1`);
    await context.close();
  });

  it('shows a banner only inside its date window (schemas/banners.json and deadlines.json, this cycle)', async () => {
    const [first] = shownBanners;
    const context = await env.browser.newContext();
    const { page } = await openPage(context);
    // noon in the partner's time zone (America/Chicago is UTC-6 in winter) on the window's first day, and on its end day
    await page.clock.setFixedTime(new Date(`${first!.start}T18:00:00Z`));
    await page.goto(`${env.server.url}/about`);
    await page.getByText(first!.text).waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await page.clock.setFixedTime(new Date(`${first!.end}T18:00:00Z`));
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.locator('.banner-area').count()).toBe(0);
    await context.close();
  });
});
