import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import errors from '../../schemas/text/errors.json';
import frame from '../../schemas/text/frame.json';
import loginForm from '../../schemas/auth/login.json';
import { ApiSession, STRONG_PASSWORD } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { openPage } from '../../support/browser.ts';
import { fillAnswers } from '../helpers/form-filler.ts';
import { defaultDatabaseTarget } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
});

describe.each(defaultDatabaseTarget())('the lifecycle in Chromium on $name', (target) => {
  let server: TestServer;
  let counter = 0;

  beforeAll(async () => {
    server = await startTestServerOn(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function signedIn(): Promise<{ page: Page; api: ApiSession; username: string }> {
    const username = `cycle${++counter}.${target.name}@example.org`;
    const api = await createConfirmedApplicant(server.app, username);
    const context = await browser.newContext();
    await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
    const { page } = await openPage(context, { expectedErrors: [/Failed to load resource/, /failed with/, /ERR_CONNECTION_REFUSED/] });
    return { page, api, username };
  }

  const saveState = (page: Page) => page.locator('[data-save-state]');
  const saved = (page: Page) => page.locator('[data-save-state="saved"]').waitFor({ timeout: 30_000 });
  const profileAnswers = async (api: ApiSession) => (await api.get<{ answer: Record<string, unknown> }>('/api/profile')).body.answer;

  it('takes a returning applicant back to the page where they stopped', async () => {
    const { page, api, username } = await signedIn();
    await page.goto(`${server.url}/about`);
    await page.getByRole('link', { name: /Your Education/ }).click();
    await page.waitForURL(`${server.url}/education-ug`);
    await expect.poll(async () => (await api.get('/api/profile')).body.last_page).toBe('/education-ug');
    await page.context().close();

    // another browser, a later day
    const later = await browser.newContext();
    const { page: second } = await openPage(later);
    await second.goto(`${server.url}/login`);
    await second.getByLabel('Email Address').fill(username);
    await second.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await second.getByRole('button', { name: loginForm.submit, exact: true }).click();
    await second.waitForURL(`${server.url}/education-ug`);
    await later.close();
  });

  it('shows the four welcome states', async () => {
    const anonymous = await browser.newContext();
    const { page: visitor } = await openPage(anonymous);
    await visitor.goto(`${server.url}/about`);
    await visitor.getByRole('region', { name: frame.welcome.anonymous.title }).waitFor();
    await anonymous.close();

    const { page, api } = await signedIn();
    await page.goto(`${server.url}/about`);
    await page.getByRole('region', { name: frame.welcome.first_login.title }).waitFor();
    await fillAnswers(page, { first_name: 'Grace' });
    await saved(page);
    await page.context().close();

    await api.post('/public/login', { username: (await api.get('/api/profile')).body.username, password: STRONG_PASSWORD });
    const context = await browser.newContext();
    await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
    const { page: again } = await openPage(context);
    await again.goto(`${server.url}/about`);
    await again.getByRole('region', { name: 'Welcome Back, Grace!' }).waitFor();
    // the submitted state is shown by the journey test: 'Thanks, {name}!'
    await context.close();
  });

  it('keeps what an anonymous visitor typed across a reload and in the next tab, after this one closed', async () => {
    const context = await browser.newContext();
    const { page } = await openPage(context);
    await page.goto(`${server.url}/about`);
    await page.locator('#root:not([data-drawn]) [data-page="about"]').waitFor();
    await fillAnswers(page, { first_name: 'Anon', last_name: 'Visitor' });
    await page.reload(); // at once: what the last keystrokes changed is kept as the page goes
    await page.locator('#root:not([data-drawn]) [data-page="about"]').waitFor();
    expect(await page.locator('#first_name').inputValue()).toBe('Anon');
    expect(await page.locator('#last_name').inputValue()).toBe('Visitor');
    // the tab closed (or the phone killed it): the browser keeps them until sign-up
    await page.close();
    const other = await context.newPage();
    await other.goto(`${server.url}/about`);
    await other.locator('#root:not([data-drawn]) [data-page="about"]').waitFor();
    expect(await other.locator('#first_name').inputValue()).toBe('Anon');
    await context.close();
  });

  it('two tabs of one applicant editing different pages do not erase each other', async () => {
    const { page, api } = await signedIn();
    const other = await page.context().newPage();
    await page.goto(`${server.url}/about`);
    // the second tab opens where the first one is (a tab opened elsewhere would be taken back to
    // the applicant's last page, whichever tab's last page reached the server first) and moves on
    await expect.poll(async () => (await api.get<{ last_page: string | null }>('/api/profile')).body.last_page).toBe('/about');
    await other.goto(`${server.url}/about`);
    await other.getByRole('link', { name: /Your Education/ }).click();
    await other.waitForURL(`${server.url}/education-ug`);
    await fillAnswers(page, { first_name: 'Tab', last_name: 'One' });
    await fillAnswers(other, { home_schooled: 'No', hs_name: 'Tab Two High', hs_class_name: 'Latin' });
    await saved(page);
    await saved(other);
    await fillAnswers(page, { middle_name: 'Again' });
    await saved(page);
    expect(await profileAnswers(api)).toMatchObject({ first_name: 'Tab', last_name: 'One', middle_name: 'Again', hs_name: 'Tab Two High', hs_class_name: 'Latin' });
    await page.context().close();
  });

  it('two tabs editing the same answer end with the newest one, even when the older save arrives last', async () => {
    const { page, api } = await signedIn();
    const other = await page.context().newPage();
    await page.goto(`${server.url}/about`);
    await other.goto(`${server.url}/about`);
    // the first tab's save is held on its way (a slow proxy) ...
    let releaseHeld!: () => void;
    const held = new Promise<void>((resolve) => { releaseHeld = resolve; });
    let holding!: () => void;
    const isHeld = new Promise<void>((resolve) => { holding = resolve; });
    await page.route('**/api/answer', async (route) => {
      holding();
      await held;
      await route.continue();
    });
    await fillAnswers(page, { first_name: 'Older' });
    await isHeld;
    // ... while the second tab changes the same answer later, and is saved first
    await fillAnswers(other, { first_name: 'Newer' });
    await saved(other);
    releaseHeld();
    await saved(page);
    expect(await profileAnswers(api)).toMatchObject({ first_name: 'Newer' });
    // the tab whose save came late shows what is stored, not what it sent
    await expect.poll(() => page.locator('#first_name').inputValue()).toBe('Newer');
    await page.context().close();
  });

  it('keeps answers typed while the server is down and saves them once it is back', async () => {
    const { page, api } = await signedIn();
    await page.goto(`${server.url}/about`);
    await fillAnswers(page, { first_name: 'Before' });
    await saved(page);

    await server.stop();
    await fillAnswers(page, { last_name: 'During', city: 'Outage' });
    await page.locator('[data-save-state="offline"], [data-save-state="failed"]').waitFor({ timeout: 30_000 });
    expect(await saveState(page).textContent()).toMatch(/offline|could not save/);
    await server.start();

    await saved(page);
    const afterRestart = new ApiSession(server.app); // the restarted server, the same session
    api.cookies.forEach((value, name) => afterRestart.cookies.set(name, value));
    expect(await profileAnswers(afterRestart)).toMatchObject({ first_name: 'Before', last_name: 'During', city: 'Outage' });
    await page.reload();
    expect(await page.locator('#last_name').inputValue()).toBe('During');
    await page.context().close();
  });

  it('saves what was typed when the session had ended, after logging in again', async () => {
    const { page, api, username } = await signedIn();
    await page.goto(`${server.url}/about`);
    await fillAnswers(page, { first_name: 'Kept' });
    await saved(page);
    await sql`delete from sessions`.execute(server.app.db); // the session ended on the server (an inactivity logout elsewhere)
    await fillAnswers(page, { last_name: 'Unsaved' });
    await page.waitForURL(`${server.url}/login`, { timeout: 30_000 });
    await page.locator('.bp6-toast', { hasText: errors.session_invalid }).waitFor();
    await page.getByLabel('Email Address').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: loginForm.submit, exact: true }).click();
    await page.waitForURL(`${server.url}/about`);
    await saved(page);
    await api.post('/public/login', { username, password: STRONG_PASSWORD });
    expect(await profileAnswers(api)).toMatchObject({ first_name: 'Kept', last_name: 'Unsaved' });
    await page.context().close();
  });

  it('keeps add-another counts and tab choices across a reload', async () => {
    const { page } = await signedIn();
    await page.goto(`${server.url}/education-ug`);
    await page.getByRole('button', { name: 'Add another honor or award' }).click();
    await page.locator('#honors_2_name').fill('Science fair');
    await page.getByRole('tab', { name: 'Upload my résumé' }).click();
    await page.locator('#activ_resume').waitFor();
    await saved(page);
    await page.reload();
    await page.locator('#honors_2_name').waitFor();
    expect(await page.locator('#honors_2_name').inputValue()).toBe('Science fair');
    expect(await page.getByRole('tab', { name: 'Upload my résumé' }).getAttribute('aria-selected')).toBe('true');
    await page.context().close();
  });
});
