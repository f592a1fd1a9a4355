import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import confirmForm from '../../schemas/auth/confirm.json';
import messages from '../../schemas/auth/messages.json';
import signupForm from '../../schemas/auth/signup.json';
import { axeViolations } from '../helpers/axe.ts';
import { openPage } from '../../support/browser.ts';
import { confirmationCodeOf, startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

/**
 * Faults, in Chromium: the mail server answers "421 busy" when the
 * applicant signs up. The sign-up goes through at once; the /confirm page says the code's
 * mail is delayed (a warning that screen readers hear, as a status) while the mail job
 * retries; once the mail server takes it, the notice goes and the code confirms the account.
 */

let server: TestServer;
let smtp: SmtpReceiver;
let browser: Browser;

beforeAll(async () => {
  smtp = await startSmtpReceiver({ refusing: true });
  server = await startTestServer({ env: { SMTP_URL: smtp.url, JOB_RETRY_DELAY_MS: '100' } });
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.close();
  await smtp?.close();
});

const toast = (page: Page, text: string) => page.locator('.app-toaster .bp6-toast', { hasText: text });

describe('sign-up while the mail server refuses, in Chromium', () => {
  it('says the code is delayed, then the code that arrives confirms the account', async () => {
    const context = await browser.newContext();
    const { page, problems } = await openPage(context);
    const username = 'mailless@example.org';
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('Email Address', { exact: true }).fill(username);
    await page.getByLabel('Password', { exact: true }).fill('Cobalt-Meadow-2209!');
    await page.getByRole('button', { name: signupForm.submit }).click();

    await page.waitForURL(`${server.url}/confirm`);
    await toast(page, messages.signup_sent.replace('{username}', username)).waitFor();
    const delayed = page.getByRole('status').filter({ hasText: messages.mail_delayed.replace('{username}', username) });
    await delayed.waitFor();
    expect(await delayed.locator('.bp6-callout').getAttribute('class')).toContain('bp6-intent-warning');
    expect(await axeViolations(page, { strict: true })).toEqual([]);

    // the mail server takes mail again: the retried mail goes out and the notice goes with it
    smtp.accept();
    const mail = await smtp.waitFor(username, () => true, 30_000);
    await delayed.waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByLabel('Confirmation Code', { exact: true }).fill(confirmationCodeOf(mail));
    await page.getByRole('button', { name: confirmForm.submit }).click();
    await page.waitForURL(`${server.url}/login`);
    await toast(page, messages.confirm_success).waitFor();

    expect(problems.errors).toEqual([]);
    await context.close();
  });
});
