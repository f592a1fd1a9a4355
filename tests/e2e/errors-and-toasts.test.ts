import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import loginForm from '../../schemas/auth/login.json';
import messages from '../../schemas/auth/messages.json';
import errors from '../../schemas/text/errors.json';
import { axeViolations } from '../helpers/axe.ts';
import { openPage, screenshot } from '../../support/browser.ts';

const env = useServerAndBrowser();

describe('errors and toasts in Chromium', () => {
  it('an error toast has the card title, stays, is reached with F8 and dismissed', async () => {
    const context = await env.browser.newContext();
    const { page } = await openPage(context);
    await page.clock.install();
    await page.goto(`${env.server.url}/login`);
    await page.getByLabel('Email Address').fill('nobody@example.org');
    await page.getByLabel('Password', { exact: true }).fill('Whatever-1234!');
    await page.getByRole('button', { name: loginForm.submit, exact: true }).click();
    const toast = page.locator('.bp6-toast', { hasText: messages.login_failed });
    await toast.waitFor();
    expect(await toast.textContent()).toContain('Log In Error');
    expect(await toast.getAttribute('class')).toContain('bp6-intent-danger');
    // error toasts stay 300000 ms: still there after the 5 s a success toast lasts (on the page's clock)
    await page.clock.runFor(5500);
    expect(await toast.isVisible()).toBe(true);
    await page.keyboard.press('F8');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('bp6-toast'))).toBe(true);
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await toast.getByRole('button', { name: 'Close' }).click();
    await toast.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('a success toast goes away by itself after 5 seconds', async () => {
    const context = await env.browser.newContext();
    const { page } = await openPage(context);
    await page.clock.install();
    await page.goto(`${env.server.url}/forgot`);
    await page.getByLabel('Email Address').fill('someone@example.org');
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000)); // the toast's 5 s start on a frozen clock
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    const toast = page.locator('.bp6-toast', { hasText: 'we sent it a link' });
    await toast.waitFor();
    expect(await toast.evaluate((element) => element.getBoundingClientRect().width)).toBe(390);
    await page.clock.runFor(4000);
    expect(await toast.isVisible()).toBe(true);
    await page.clock.runFor(1500); // 5 s on the page's clock, whatever the machine's load
    await page.clock.resume(); // the exit transition runs on timers too
    await toast.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('a non-JSON answer becomes the standard message', async () => {
    const context = await env.browser.newContext();
    const { page } = await openPage(context, { expectedErrors: [/502/] });
    await page.route('**/public/login', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad Gateway</h1>' }));
    await page.goto(`${env.server.url}/login`);
    await page.getByLabel('Email Address').fill('nobody@example.org');
    await page.getByLabel('Password', { exact: true }).fill('Whatever-1234!');
    await page.getByRole('button', { name: loginForm.submit, exact: true }).click();
    await page.locator('.bp6-toast', { hasText: errors.standard }).waitFor();
    await context.close();
  });

  it('a failing profile load shows the root error screen', async () => {
    const context = await env.browser.newContext();
    await context.addCookies([{ name: 'logged_in', value: '1', url: env.server.url }]);
    const { page } = await openPage(context, { expectedErrors: [/500/, /Unhandled error/, /Error handled by React Router/, /ServerError/] });
    await page.route('**/api/profile', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }));
    for (const path of ['**/api/add-another', '**/api/tabs']) await page.route(path, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }));
    await page.goto(`${env.server.url}/about`);
    await page.getByRole('heading', { name: errors.root_error.title }).waitFor();
    await page.getByText(errors.root_error.body).waitFor();
    await screenshot(page, 'root-error');
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await context.close();
  });

  it('a 401 clears the session and goes to /login with the session-invalid message', async () => {
    const context = await env.browser.newContext();
    await context.addCookies([{ name: 'logged_in', value: '1', url: env.server.url }, { name: 'session', value: 'stale', url: env.server.url }]);
    const { page } = await openPage(context);
    await page.goto(`${env.server.url}/final-steps`);
    await page.waitForURL(`${env.server.url}/login`);
    await page.locator('.bp6-toast', { hasText: errors.session_invalid }).waitFor();
    const cookies = await context.cookies();
    expect(cookies.find((cookie) => cookie.name === 'logged_in')).toBeUndefined();
    await context.close();
  });
});
