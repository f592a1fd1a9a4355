/**
 * Spec lines in Chromium: the location rules for service and anonymous visitors,
 * the service view's bare frame, the footer link that carries the answers, the PDF copy's
 * failure, a conversion whose file is gone (NOT_ANSWERED), a foreign school's state, and
 * the submitted welcome's steps. One server for the file.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import documentsText from '../../schemas/documents.json';
import errors from '../../schemas/text/errors.json';
import frame from '../../schemas/text/frame.json';
import loginForm from '../../schemas/auth/login.json';
import { form } from '../../src/shared/form/form-model-data.ts';
import { signServiceToken } from '../../src/server/pdf/service-token.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { axeViolations } from '../helpers/axe.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { makeImage } from '../../support/document-fixtures.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';

const env = useServerAndBrowser();
let applicants = 0;

/** A confirmed applicant with these answers, and a browser context holding the session. */
async function applicant(answers: Record<string, string | boolean> = {}): Promise<{ api: ApiSession; email: string; context: BrowserContext; page: Page }> {
  const email = `spec-lines-${++applicants}@example.org`;
  const api = await createConfirmedApplicant(env.server.app, email);
  if (Object.keys(answers).length) expect((await api.put('/api/answer', answers)).status).toBe(200);
  const context = await env.browser.newContext();
  await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: env.server.url })));
  const { page } = await openPage(context, { expectedErrors: [/Failed to load resource/, /failed with/] });
  return { api, email, context, page };
}

async function serviceToken(email: string): Promise<string> {
  const row = await env.server.app.db.selectFrom('applicants').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return encodeURIComponent(signServiceToken(env.server.app.serviceSecret, row.id, 60_000));
}

describe('location rules (spec section 2, spec-decisions 12)', () => {
  it('sends an anonymous visitor from /completion to /about with the query kept', async () => {
    const context = await env.browser.newContext();
    const { page, problems } = await openPage(context);
    await page.goto(`${env.server.url}/completion?from=mail`);
    await page.waitForURL(`${env.server.url}/about?from=mail`);
    await page.getByRole('heading', { level: 1, name: 'About You' }).waitFor();
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('takes a page\'s address typed in another case or with a trailing slash to that page, and any other to /about', async () => {
    const context = await env.browser.newContext();
    const { page, problems } = await openPage(context);
    await page.goto(`${env.server.url}/Education-UG/?from=mail`);
    await page.waitForURL(`${env.server.url}/education-ug?from=mail`);
    await page.getByRole('heading', { level: 1, name: form.pages['education-ug'].title }).waitFor();
    await page.goto(`${env.server.url}/LOGIN`);
    await page.waitForURL(`${env.server.url}/login`);
    await page.getByRole('heading', { level: 1, name: loginForm.title }).waitFor();
    await page.goto(`${env.server.url}/no-such-page?from=mail`);
    await page.waitForURL(`${env.server.url}/about?from=mail`);
    await page.getByRole('heading', { level: 1, name: form.pages.about.title }).waitFor();
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('sends a service visitor from /signup, /login and /completion to /about, and shows the bare read-only frame', async () => {
    const { email, context } = await applicant({ first_name: 'Servia' });
    await context.close();
    const token = await serviceToken(email);
    const service = await env.browser.newContext();
    const { page, problems } = await openPage(service);
    for (const path of ['/signup', '/login', '/completion']) {
      await page.goto(`${env.server.url}${path}?service_token=${token}`);
      await page.waitForURL(`${env.server.url}/about?service_token=${token}`);
      await page.locator('.page-form-service').waitFor();
    }
    // spec "PDF / service view": no header, footer, banners, skip link or buttons; only the
    // step links, which keep the staff token so that staff can read every page
    for (const selector of ['.app-header', '.skip-link', 'footer', '.banner-area']) expect(await page.locator(selector).count(), selector).toBe(0);
    expect(await page.getByRole('button').count()).toBe(0);
    const steps = page.getByRole('navigation', { name: frame.steps_label });
    expect(await page.getByRole('navigation').count()).toBe(1);
    const hrefs = await steps.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs.length).toBeGreaterThan(1);
    for (const href of hrefs) expect(href).toContain(`service_token=${token}`);
    expect(await page.locator('#first_name').textContent()).toBe('Servia');
    await screenshot(page, 'spec-lines-service-view');
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    expect(problems.errors).toEqual([]);
    await service.close();
  });
});

describe('the footer link carries the answers (spec section 2)', () => {
  it('leads from the account pages back to the application with the answers carried so far', async () => {
    const context = await env.browser.newContext();
    const { page, problems } = await openPage(context);
    // /signup as the Create Account link leaves it: the answers in navigation state (read by the router when the page loads)
    await page.goto(`${env.server.url}/signup`);
    await page.evaluate(() => history.replaceState({ usr: { answers: { first_name: 'Ada', last_name: 'Lovelace' } }, key: 'carried', idx: 0 }, ''));
    await page.reload();
    const back = page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: frame.footer.application });
    await back.waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await back.click();
    await page.waitForURL(`${env.server.url}/about`);
    await page.getByRole('heading', { level: 1, name: 'About You' }).waitFor();
    expect(await page.evaluate(() => (history.state as { usr?: { answers?: Record<string, string> } }).usr?.answers)).toEqual({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});

describe('the completion page', () => {
  it('lists the last steps, and a PDF copy that FAILED raises the standard message under the download error', async () => {
    const { api, page, context } = await applicant(completeApplication());
    expect((await api.post('/api/submit')).status).toBe(200);
    await page.route((url) => url.pathname === '/api/pdf', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"status":"FAILED"}' }));
    await page.goto(`${env.server.url}/completion`);
    await page.getByText(frame.completion.message).first().waitFor();
    const steps = page.locator('.welcome-box .next-steps li');
    expect(await steps.count()).toBe(frame.welcome.submitted.steps.length);
    expect(await steps.first().textContent()).toContain('Concordia Heights University');
    await page.getByRole('button', { name: documentsText.messages.download_pdf }).click();
    const toast = page.locator('.app-toast-error');
    await toast.waitFor();
    expect(await toast.locator('.app-toast-title').textContent()).toBe(documentsText.messages.download_error);
    expect(await toast.textContent()).toContain(errors.standard);
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await context.close();
  });
});

describe('documents and schools', () => {
  it('a conversion whose file is gone (NOT_ANSWERED) ends polling quietly: no error toast, no delete, the question says why', async () => {
    const { page, context } = await applicant();
    const deletes: string[] = [];
    page.on('request', (request) => void (request.method() === 'DELETE' && deletes.push(request.url())));
    await page.route((url) => url.pathname === '/api/pdf/document-answer/hs_transcript', (route) => (route.request().method() === 'GET'
      ? route.fulfill({ status: 200, contentType: 'application/json', body: '{"status":"NOT_ANSWERED"}' })
      : route.fallback()));
    await page.goto(`${env.server.url}/education-ug`);
    await page.getByRole('tab', { name: 'Upload my transcript' }).click();
    const folder = mkdtempSync(join(tmpdir(), 'spec-lines-'));
    writeFileSync(join(folder, 'transcript.png'), await makeImage(env.browser, 'png'));
    await page.locator('#hs_transcript').setInputFiles(join(folder, 'transcript.png'));
    const question = page.locator('[data-field-key="hs_transcript"]');
    await question.getByText(documentsText.messages.not_answered).waitFor();
    expect(await question.locator('[data-document-phase]').getAttribute('data-document-phase')).toBe('idle');
    expect(await page.locator('.app-toast-error').count()).toBe(0);
    expect(deletes).toEqual([]);
    await context.close();
  });

  it('a foreign school hides its state; a college has a country', async () => {
    const { page, context } = await applicant({ home_schooled: 'N', college_univ_attended: 'Y' });
    await page.goto(`${env.server.url}/education-ug`);
    await page.locator('#hs_state').waitFor();
    await page.locator('#hs_country').selectOption('DEU');
    await page.locator('[data-field-key="hs_state"]').waitFor({ state: 'detached' });
    await page.locator('#college_country').selectOption('FRA');
    await page.locator('[data-field-key="college_state"]').waitFor({ state: 'detached' });
    await page.locator('#hs_country').selectOption('CAN');
    await page.locator('#hs_state').waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await context.close();
  });
});
