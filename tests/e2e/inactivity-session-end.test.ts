import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import loginForm from '../../schemas/auth/login.json';
import frame from '../../schemas/text/frame.json';
import { STRONG_PASSWORD, type ApiSession } from '../../support/api-session.ts';
import { axeViolations } from '../helpers/axe.ts';
import { settle } from '../../support/browser.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import { byId, byName, tabTo } from '../helpers/keyboard.ts';
import { signedInPage } from '../../support/signed-in-page.ts';

/**
 * The inactivity warning ends with the session, however it ends: a chosen Log Out, a 401
 * (the server's session expired, or the cookies are gone). Left on /login for half a
 * timeout and five seconds more, the page still shows the login form and no "Are you still
 * there?". Only a login starts the guard again. The page's clock is moved by the test, so
 * the wait costs no real time and a busy machine cannot race the timers.
 */
const TIMEOUT_MS = 60_000;
const env = useServerAndBrowser({ env: { INACTIVITY_TIMEOUT_MS: String(TIMEOUT_MS) } });
let counter = 0;

async function signedIn(): Promise<{ page: Page; api: ApiSession; email: string }> {
  const email = `ended${++counter}@example.org`;
  const { page, api } = await signedInPage(env.browser, env.server, { email }, { clock: true, path: '/about' });
  return { page, api, email };
}

/**
 * A key pressed on the page: the activity's keep-alive meets the server's 401, which leads to
 * /login. The page's clock moves on a second first: a key within half a second of the last
 * activity (here, the page's load) is not counted again.
 */
async function pressUntilLoggedOut(page: Page): Promise<void> {
  await page.clock.runFor(1000);
  await page.keyboard.press('Tab');
  await page.waitForURL(`${env.server.url}/login`, { timeout: 20_000 });
}

/**
 * On /login: half a timeout and five seconds pass (on the page's clock), then the login form
 * is still there for everyone: its e-mail box is exposed to assistive technology and has the
 * focus it had, and no dialog opened.
 */
async function expectLoginUndisturbed(page: Page): Promise<void> {
  const username = page.getByRole('textbox', { name: loginForm.fields.find((field) => field.key === 'username')!.label });
  await username.waitFor();
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  await page.clock.runFor(TIMEOUT_MS / 2 + 5000);
  await page.clock.resume();
  // what the timers did is drawn: two frames, then no transition left running
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await settle(page);
  expect(page.url()).toBe(`${env.server.url}/login`);
  await expect.poll(() => username.isVisible()).toBe(true);
  expect(await page.getByRole('alertdialog').count()).toBe(0);
  expect(await page.locator('.bp6-dialog').count()).toBe(0);
  expect(await page.locator('[aria-hidden="true"] #field-username').count()).toBe(0);
  expect(await axeViolations(page, { strict: true })).toEqual([]);
}

describe('the inactivity warning ends with the session', () => {
  it('after a chosen Log Out; a new login starts it again', async () => {
    const { page, email } = await signedIn();
    await tabTo(page, (stop) => stop.region === 'header' && /Account/i.test(stop.name), { max: 20 });
    await page.keyboard.press('Enter');
    // the popover's code loads on first use, its reminders switch comes with the setting, and
    // two frames after it opens it puts the focus on its first action: Tab only once all that
    // is done (a Tab before would be undone by that first focus)
    await page.getByText(frame.account_popover.log_out, { exact: true }).waitFor();
    await page.getByRole('switch', { name: frame.reminders.label }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.account-popover') != null)).toBe(true);
    const onLogOut = await page.evaluate((name) => document.activeElement?.textContent?.trim() === name, frame.account_popover.log_out);
    if (!onLogOut) await tabTo(page, byName(frame.account_popover.log_out), { max: 5 });
    await page.keyboard.press('Enter');
    await page.waitForURL(`${env.server.url}/login`);
    await expectLoginUndisturbed(page);

    // a login by keyboard arms the guard again: the warning comes half a timeout later
    await tabTo(page, byId('field-username'), { max: 30 });
    await page.keyboard.type(email);
    await tabTo(page, byId('field-password'), { max: 3 });
    await page.keyboard.type(STRONG_PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'About You' }).waitFor();
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    await page.clock.runFor(TIMEOUT_MS / 2 + 1000);
    await page.getByRole('alertdialog', { name: frame.inactivity.title }).waitFor();
    await page.clock.resume();
    await page.context().close();
  });

  it('after a 401 from a session the server let expire', async () => {
    const { page, email } = await signedIn();
    const db = env.server.app.db;
    const applicant = await db.selectFrom('applicants').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('applicant_id', '=', applicant.id).execute();
    await pressUntilLoggedOut(page);
    await expectLoginUndisturbed(page);
    await page.context().close();
  });

  it('after a 401 because the cookies were cleared', async () => {
    const { page } = await signedIn();
    await page.context().clearCookies();
    await pressUntilLoggedOut(page);
    await expectLoginUndisturbed(page);
    await page.context().close();
  });
});
