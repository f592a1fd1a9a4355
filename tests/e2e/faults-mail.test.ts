import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import confirmForm from '../../schemas/auth/confirm.json';
import messages from '../../schemas/auth/messages.json';
import signupForm from '../../schemas/auth/signup.json';
import errors from '../../schemas/text/errors.json';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { confirmationCodeOf, startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

/**
 * Issue 7, faults, in Chromium: the mail server is down when the applicant signs up. The
 * /confirm page shows "could not send, please resend" as an error toast; once the mail
 * server is back, 'Resend confirmation code?' sends a code that confirms the account.
 * SMTP_URL points at a TCP proxy of the test, closed at first (tests/helpers/tcp-proxy.ts).
 */

let proxy: TcpProxy;
let server: TestServer;
let smtp: SmtpReceiver | undefined;
let browser: Browser;

beforeAll(async () => {
  proxy = await startTcpProxy({ host: '127.0.0.1', port: 9 }, { mode: 'down' });
  server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${proxy.port}` } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await proxy?.close();
  await smtp?.close();
});

const toast = (page: Page, text: string) => page.locator('.app-toaster .bp6-toast', { hasText: text });

describe('sign-up while the mail server is down, in Chromium', () => {
  it('shows the failure as an error toast, and the resend button sends the code once mail works', async () => {
    const context = await browser.newContext();
    const { page, problems } = await openPage(context);
    const username = 'mailless@example.org';
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('Email Address', { exact: true }).fill(username);
    await page.getByLabel('Password', { exact: true }).fill('Cobalt-Meadow-2209!');
    await page.getByRole('button', { name: signupForm.submit }).click();

    await page.waitForURL(`${server.url}/confirm`);
    const failure = toast(page, messages.signup_mail_failed);
    await failure.waitFor();
    expect(await failure.getAttribute('class')).toContain('bp6-intent-danger');
    expect(await failure.textContent()).toContain(errors.toast.error_title);
    expect(await page.getByLabel('Email Address').inputValue()).toBe(username);

    // mail works again: resend from the confirm page
    smtp = await startSmtpReceiver();
    proxy.retarget({ host: '127.0.0.1', port: Number(new URL(smtp.url).port) });
    await proxy.up();
    await page.getByRole('button', { name: confirmForm.resend }).click();
    await toast(page, messages.resend_sent.replace('{username}', username)).waitFor();
    const mail = await smtp.waitFor(username);
    await page.getByLabel('Confirmation Code').fill(confirmationCodeOf(mail));
    await page.getByRole('button', { name: confirmForm.submit }).click();
    await page.waitForURL(`${server.url}/login`);
    await toast(page, messages.confirm_success).waitFor();

    expect(problems.errors).toEqual([]);
    await context.close();
  });
});
