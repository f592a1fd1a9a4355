/**
 * The frame around the pages in Spanish, in Chromium: the footer's dialogs, the account
 * popover, the inactivity warning (its seconds counted by Spanish plural rules), and the
 * logout and its toast; a login into a Spanish account turning the page to Spanish at once.
 * Each shows and says no English (its text, title, names and descriptions, english-leaks.ts)
 * and passes axe.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import esMessages from '../../schemas/i18n/es/auth/messages.json';
import esLogin from '../../schemas/i18n/es/auth/login.json';
import esSignup from '../../schemas/i18n/es/auth/signup.json';
import esFrame from '../../schemas/i18n/es/text/frame.json';
import frame from '../../schemas/text/frame.json';
import { STRONG_PASSWORD } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { axeViolations } from '../helpers/axe.ts';
import { EnglishFinder, englishOnPage } from '../helpers/english-leaks.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

const TIMEOUT_MS = 60_000;
let server: TestServer;
let browser: Browser;
// what the test types is the applicant's: its words may be English
const english = new EnglishFinder('es', ['marco.frame@example.org', 'lucia.browser@example.org', 'sofia.carried@example.org', 'Isabel', 'no-es-un-correo', 'corta']);

beforeAll(async () => {
  server = await startTestServer({ env: { INACTIVITY_TIMEOUT_MS: String(TIMEOUT_MS) } });
  browser = await workerBrowser();
});

afterAll(async () => {
  await closeContexts(browser);
  await server?.close();
});

async function checkSpanish(page: Page, name: string): Promise<void> {
  expect(await englishOnPage(page, english), `English on ${name}`).toEqual([]);
  await screenshot(page, `spanish-${name}`);
  expect(await axeViolations(page, { strict: true }), name).toEqual([]);
}

describe('the frame in Spanish', () => {
  it('says its dialogs, popover, inactivity warning and logout in Spanish', async () => {
    const api = await createConfirmedApplicant(server.app, 'marco.frame@example.org');
    const context = await browser.newContext({ locale: 'es-ES' });
    await context.addCookies([...api.cookies, ['lang', 'es']].map(([name, value]) => ({ name: name!, value: value!, url: server.url })));
    const { page, problems } = await openPage(context);
    await page.clock.install();
    await page.goto(`${server.url}/about`);
    await page.getByRole('heading', { level: 1, name: esFrame.steps[0]!.label }).waitFor();

    // the footer's dialogs
    await page.getByRole('button', { name: esFrame.footer.help }).click();
    const help = page.getByRole('dialog', { name: esFrame.help_dialog.title });
    await help.waitFor();
    await checkSpanish(page, 'help-dialog');
    await help.getByRole('button', { name: esFrame.help_dialog.close }).last().click();
    await help.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: esFrame.footer.privacy }).click();
    const privacy = page.getByRole('dialog', { name: esFrame.privacy_dialog.title });
    await privacy.waitFor();
    await checkSpanish(page, 'privacy-dialog');
    await privacy.getByRole('button', { name: esFrame.privacy_dialog.close }).last().click();
    await privacy.waitFor({ state: 'hidden' });

    // the account popover
    await page.getByRole('button', { name: esFrame.header.account_button }).click();
    await page.getByRole('dialog', { name: esFrame.account_popover.title }).waitFor();
    await checkSpanish(page, 'account-popover');
    await page.keyboard.press('Escape');

    // idle: the warning counts its seconds in Spanish
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    await page.clock.runFor(TIMEOUT_MS / 2 + 1000);
    const warning = page.getByRole('alertdialog', { name: esFrame.inactivity.title });
    await warning.waitFor();
    await page.clock.resume();
    expect(await page.locator('#inactivity-text').textContent()).toMatch(/^Por su seguridad, su sesión se cerrará dentro de \d+ segundos? por inactividad\./);
    await checkSpanish(page, 'inactivity-warning');

    // "No": logged out, told so in a Spanish toast, on the Spanish login page
    await warning.getByRole('button', { name: esFrame.inactivity.logout }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.getByRole('heading', { level: 1, name: esLogin.title }).waitFor();
    await page.locator('.bp6-toast', { hasText: esMessages.logout_success }).waitFor();
    await checkSpanish(page, 'logged-out');
    expect(problems.errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('brings the account\'s language to another browser at login, with the login\'s confirmation', async () => {
    const api = await createConfirmedApplicant(server.app, 'lucia.browser@example.org');
    await api.get('/about?lang=es'); // chosen in the first browser: kept with the account
    await api.get('/api/logout');
    const context = await browser.newContext(); // a browser that asks for English
    const { page, problems } = await openPage(context);
    await page.goto(`${server.url}/login`);
    await page.getByRole('heading', { level: 1, name: 'Log In' }).waitFor();
    await page.getByLabel('Email Address').fill('lucia.browser@example.org');
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: esFrame.steps[0]!.label }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    // the login's confirmation crosses the load of the Spanish build, in Spanish
    await page.locator('.bp6-toast.bp6-intent-success', { hasText: esMessages.login_success }).waitFor();
    await checkSpanish(page, 'login-elsewhere');
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('turns the page to the account\'s language at once on a login with answers typed before it, and keeps them', async () => {
    const api = await createConfirmedApplicant(server.app, 'sofia.carried@example.org');
    await api.get('/about?lang=es'); // the account's language is Spanish
    await api.get('/api/logout');
    const context = await browser.newContext(); // a browser that asks for English
    const { page, problems } = await openPage(context);
    await page.goto(`${server.url}/about`);
    await page.getByRole('heading', { level: 1, name: 'About You' }).waitFor();
    await page.locator('#middle_name').fill('Isabel');
    // the welcome box's link to log in, carrying what was typed
    await page.getByRole('region', { name: frame.welcome.anonymous.title }).getByRole('link', { name: frame.account_popover.sign_in }).click();
    await page.getByRole('heading', { level: 1, name: 'Log In' }).waitFor();
    await page.getByLabel('Email Address').fill('sofia.carried@example.org');
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();

    // the first page after the login is in Spanish, with the answer typed before it
    await page.getByRole('heading', { level: 1, name: esFrame.steps[0]!.label }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    await expect.poll(() => page.locator('#middle_name').inputValue()).toBe('Isabel');
    await checkSpanish(page, 'login-with-answers');
    const saved = () => server.app.db.selectFrom('answers').innerJoin('applicants', 'applicants.id', 'answers.applicant_id')
      .select('value').where('applicants.email', '=', 'sofia.carried@example.org').where('key', '=', 'middle_name').executeTakeFirst();
    await expect.poll(async () => (await saved())?.value).toBe('Isabel');
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('checks an account form in Spanish, with the password checklist, before anything is sent', async () => {
    const context = await browser.newContext({ locale: 'es-ES', extraHTTPHeaders: { 'accept-language': 'es' } });
    const { page, problems } = await openPage(context);
    await page.goto(`${server.url}/signup`);
    await page.getByRole('heading', { level: 1, name: esSignup.title }).waitFor();
    await page.getByLabel(esSignup.fields[0]!.label).fill('no-es-un-correo');
    await page.getByLabel(esSignup.fields[1]!.label, { exact: true }).fill('corta');
    await page.getByRole('button', { name: esSignup.submit }).click();
    await page.getByText('Su dirección de correo electrónico debe ser válida.').first().waitFor();
    await page.locator('.password-checklist').getByText('Al menos 12 caracteres').waitFor();
    await checkSpanish(page, 'signup-messages');
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('asks before a change removes answers, and says what it removed, in Spanish', async () => {
    const api = await createConfirmedApplicant(server.app, 'elena.dialogs@example.org');
    await api.put('/api/answer', { mailing_addr_same_as_perm_addr: 'N', mailing_address_line_1: '12 Calle Mayor', mailing_city: 'Provo' });
    const context = await browser.newContext({ locale: 'es-ES' });
    await context.addCookies([...api.cookies, ['lang', 'es']].map(([name, value]) => ({ name: name!, value: value!, url: server.url })));
    const { page, problems } = await openPage(context);
    await page.goto(`${server.url}/about`);
    await expect.poll(() => page.locator('#mailing_address_line_1').inputValue()).toBe('12 Calle Mayor');

    // "Sí" hides the mailing address: asked first, counted by the Spanish plural rules
    await page.locator('[data-field-key="mailing_addr_same_as_perm_addr"] label.bp6-control', { hasText: /^Sí$/ }).click();
    const dialog = page.getByRole('alertdialog', { name: esFrame.hidden_answers.title });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Este cambio oculta 2 respuestas que indicó');
    await checkSpanish(page, 'hidden-answers-dialog');
    await dialog.getByRole('button', { name: esFrame.hidden_answers.confirm }).click();
    await page.getByText('Se eliminaron 2 respuestas.').first().waitFor();
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});
