import { describe, expect, it } from 'vitest';
import { ACCESSIBILITY_PATH } from '../../src/shared/accessibility-statement.ts';
import esPartner from '../../schemas/i18n/es/partner.json';
import esStatement from '../../schemas/i18n/es/text/accessibility-statement.json';
import esFrame from '../../schemas/i18n/es/text/frame.json';
import statement from '../../schemas/text/accessibility-statement.json';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import frame from '../../schemas/text/frame.json';
import partner from '../../schemas/partner.json';
import shownBanners from '../../src/shared/generated/banners-shown.json';
import { axeViolations } from '../helpers/axe.ts';
import { openPage, screenshot } from '../../support/browser.ts';

const env = useServerAndBrowser();

describe('the page frame', () => {
  it('links every page to the accessibility statement, a page of the frame for applicants, in English and Spanish', async () => {
    for (const [language, texts, frameTexts, office] of [['en', statement, frame, partner.admissions_office], ['es', esStatement, esFrame, esPartner.admissions_office]] as const) {
      const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addCookies([{ name: 'lang', value: language, url: env.server.url }]);
      const { page, problems } = await openPage(context);
      for (const path of ['/about', '/login']) {
        await page.goto(`${env.server.url}${path}`);
        const link = page.getByRole('navigation', { name: language === 'en' ? 'Footer' : 'Pie de página' }).getByRole('link', { name: frameTexts.footer.accessibility });
        await link.waitFor();
        await link.click();
        await page.waitForURL(`${env.server.url}${ACCESSIBILITY_PATH}`);
        await page.getByRole('heading', { level: 1, name: frameTexts.footer.accessibility }).waitFor();
      }
      // in the frame, titled, its sections for applicants; reached directly too, with no account
      await page.goto(`${env.server.url}${ACCESSIBILITY_PATH}`);
      await page.getByRole('heading', { level: 1, name: frameTexts.footer.accessibility }).waitFor();
      expect(await page.title()).toBe(`${frameTexts.footer.accessibility} | ${partner.name}`);
      expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(texts.sections.map((section) => section.heading));
      await expect(page.locator('.app-header').textContent()).resolves.toContain(partner.name);
      expect(await page.getByRole('link', { name: partner.help_email }).getAttribute('href')).toBe(`mailto:${partner.help_email}`);
      expect(await page.locator('main').innerText()).toContain(office);
      expect(await page.locator('main').innerText()).toContain(language === 'en' ? 'December 4, 2026' : '4 de diciembre de 2026');
      await screenshot(page, `accessibility-statement-${language}`);
      expect(await axeViolations(page, { strict: true })).toEqual([]);
      expect(problems.errors).toEqual([]);
      await context.close();
    }
  });

  it('shows /about inside the full frame, and every dialog opens and closes', async () => {
    const context = await env.browser.newContext();
    const { page, problems } = await openPage(context);
    await page.goto(`${env.server.url}/about`);

    await page.getByRole('heading', { level: 1, name: 'About You' }).waitFor();
    await expect(page.locator('.app-header').textContent()).resolves.toContain(partner.name);
    const steps = page.getByRole('navigation', { name: frame.steps_label }).getByRole('link');
    expect(await steps.allTextContents()).toEqual(frame.steps.map((step, index) => `${index + 1}\u00a0${step.label}`));
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
