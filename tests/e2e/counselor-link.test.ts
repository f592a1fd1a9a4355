/**
 * A counselor sends the transcript without an account, in Chromium against the real server,
 * SMTP receiver and LibreOffice: the applicant asks on the completion page, the mail arrives,
 * a second browser opens its link, uploads a Word file, it converts, and the applicant's page
 * shows the transcript received. The link's token never leaves the fragment: the page is
 * served with Referrer-Policy no-referrer, and no request it makes carries the token in its
 * address or Referer. The counselor's page in Spanish, and a withdrawn link, are axe clean.
 */
import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fileItems from '../../schemas/file-items.json';
import spanishItems from '../../schemas/i18n/es/file-items.json';
import esApiMessages from '../../schemas/i18n/es/text/api-messages.json';
import { openPage, screenshot } from '../../support/browser.ts';
import { counselorTokenOfMail } from '../../support/counselor-link.ts';
import { makeDocx, makeImage } from '../../support/document-fixtures.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { signedInPage } from '../../support/signed-in-page.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { axeViolations } from '../helpers/axe.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

const texts = fileItems.texts;
const es = spanishItems.texts;
const transcriptTitle = fileItems.items.find((item) => item.id === 'transcript')!.title;
const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_all, key: string) => values[key] ?? `{${key}}`);

let server: TestServer;
let smtp: SmtpReceiver;
let browser: Browser;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.close();
  await smtp?.close();
});

describe('a counselor\'s link', () => {
  it('takes the counselor\'s Word file from the mailed link, and the applicant sees the transcript received', async () => {
    const counselor = 'ms.rivera@central-high.example.org';
    const { page, context } = await signedInPage(browser, server, {
      email: 'ada.counselor@example.org', answers: { ...completeApplication(), counselor_email_address: counselor }, status: 'submitted',
    }, { path: '/completion' });
    const transcript = page.locator('[data-item-id="transcript"]');
    await transcript.getByRole('button', { name: texts.ask_counselor }).click();
    const address = transcript.getByLabel(texts.counselor_address);
    expect(await address.inputValue()).toBe(counselor);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await screenshot(page, 'counselor-request-form');
    await transcript.getByRole('button', { name: texts.send_request }).click();
    await transcript.getByText(`We e-mailed your counselor at ${counselor}.`).waitFor();
    await transcript.getByRole('button', { name: texts.withdraw_request }).waitFor();
    expect(await transcript.textContent()).toContain('Requested on');
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await screenshot(page, 'counselor-request-sent');

    const mail = await smtp.waitFor(counselor);
    const token = counselorTokenOfMail(mail.text);
    const link = /https?:\/\/\S+\/counselor\S*/.exec(mail.text)![0];

    // the counselor: another browser, no account, no cookie
    const counselorContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page: counselorPage, problems } = await openPage(counselorContext);
    const requests: Request[] = [];
    counselorPage.on('request', (request) => requests.push(request));
    const response = await counselorPage.goto(link);
    expect(response!.headers()['referrer-policy']).toBe('no-referrer');
    await counselorPage.getByRole('heading', { level: 1, name: fill(texts.counselor_title, { applicant: 'Ada Lovelace' }) }).waitFor();
    await counselorPage.getByText(fill(texts.counselor_intro, { applicant: 'Ada Lovelace', item: transcriptTitle, partner: 'Concordia Heights University' })).waitFor();
    // the page shows nothing else of the application
    const shown = await counselorPage.locator('main').textContent();
    for (const answer of ['Lovelace@', 'Central High School', '3.75', 'ada.counselor@example.org']) expect(shown).not.toContain(answer);
    expect(await axeViolations(counselorPage, { strict: true })).toEqual([]);
    await screenshot(counselorPage, 'counselor-page');
    // the language switch keeps the link (its fragment), there and back
    await counselorPage.getByRole('link', { name: 'Español' }).click();
    await counselorPage.getByRole('heading', { level: 1, name: fill(es.counselor_title, { applicant: 'Ada Lovelace' }) }).waitFor();
    await counselorPage.getByRole('link', { name: 'English' }).click();
    await counselorPage.getByRole('heading', { level: 1, name: fill(texts.counselor_title, { applicant: 'Ada Lovelace' }) }).waitFor();

    // a file the rules refuse: said in an alert tied to the chooser, nothing sent
    await counselorPage.getByLabel(texts.upload_label).setInputFiles({ name: 'transcript.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    const refused = counselorPage.locator('.counselor-card').getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toContain(fill(texts.upload_failed, { message: '' }).trim());
    expect(await axeViolations(counselorPage, { strict: true })).toEqual([]);
    await screenshot(counselorPage, 'counselor-page-refused');

    await counselorPage.getByLabel(texts.upload_label).setInputFiles({ name: 'transcript.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: await makeDocx(['Official transcript', 'Ada Lovelace: GPA 3.75']) });
    await counselorPage.getByText(fill(texts.counselor_received, { item: transcriptTitle, applicant: 'Ada Lovelace' })).first().waitFor({ timeout: 120_000 });
    expect(await axeViolations(counselorPage, { strict: true })).toEqual([]);
    await screenshot(counselorPage, 'counselor-page-received');

    // the token went in a header only: no address the page asked for, and no Referer, carries it
    expect(requests.length).toBeGreaterThan(3);
    for (const request of requests) {
      expect(request.url(), request.url()).not.toContain(token.split('.')[1]!);
      const referer = (await request.allHeaders()).referer ?? '';
      expect(referer, `Referer of ${request.url()}`).not.toContain(token.split('.')[1]!);
    }
    expect(requests.some((request) => request.url().includes('/api/counselor/') && request.headers()['x-counselor-link'] === token)).toBe(true);
    expect(problems.errors).toEqual([]);

    // the applicant comes back to the page: the transcript is in
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => transcript.textContent(), { timeout: 30_000 }).toContain('Received on');
    expect(await transcript.getByRole('button', { name: texts.withdraw_request }).count()).toBe(0);
    await screenshot(page, 'counselor-transcript-received');
    await counselorContext.close();
    await context.close();
  }, 240_000);

  it('speaks Spanish to a counselor asked in Spanish, and says when a link was withdrawn', async () => {
    const { page, context, applicant } = await signedInPage(browser, server, {
      email: 'ada.spanish@example.org', answers: { ...completeApplication(), counselor_email_address: 'sr.garcia@escuela.example.org' }, status: 'submitted', language: 'es',
    }, { path: '/completion?lang=es' });
    const recommendation = page.locator('[data-item-id="counselor-recommendation"]');
    await recommendation.getByRole('button', { name: es.ask_counselor }).click();
    await recommendation.getByLabel(es.mail_language).selectOption('es');
    await recommendation.getByRole('button', { name: es.send_request }).click();
    await recommendation.getByRole('button', { name: es.withdraw_request }).waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await screenshot(page, 'counselor-request-sent-es');
    const mail = await smtp.waitFor('sr.garcia@escuela.example.org');
    const link = /https?:\/\/\S+\/counselor\S*/.exec(mail.text)![0];
    expect(link).toContain('/counselor?lang=es#');

    const counselorContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const { page: counselorPage } = await openPage(counselorContext);
    await counselorPage.goto(link);
    await counselorPage.getByRole('heading', { level: 1, name: fill(es.counselor_title, { applicant: 'Ada Lovelace' }) }).waitFor();
    expect(await counselorPage.getAttribute('html', 'lang')).toBe('es');
    expect(await axeViolations(counselorPage, { strict: true })).toEqual([]);
    await screenshot(counselorPage, 'counselor-page-es');

    // withdrawn: the page says so, in Spanish
    await server.app.counselorRequests.withdrawByApplicant(applicant.id, 'counselor-recommendation');
    await counselorPage.reload();
    await counselorPage.getByRole('alert').filter({ hasText: esApiMessages.link_withdrawn }).waitFor();
    expect(await axeViolations(counselorPage, { strict: true })).toEqual([]);
    await screenshot(counselorPage, 'counselor-page-withdrawn-es');
    await counselorContext.close();
    await context.close();
  }, 120_000);

  it('says when the counselor\'s link expired with nothing sent, and lets the applicant ask again', async () => {
    const counselor = 'mr.okafor@central-high.example.org';
    const { page, context, applicant } = await signedInPage(browser, server, {
      email: 'ada.expired@example.org', answers: { ...completeApplication(), counselor_email_address: counselor }, status: 'submitted',
    }, { path: '/completion' });
    await server.app.counselorRequests.ask(applicant.id, 'transcript', { email: counselor, language: 'en' });
    // the link's days pass with nothing sent
    await server.app.db.updateTable('counselor_requests').set({ expires_at: new Date(Date.now() - 60_000) }).where('applicant_id', '=', applicant.id).execute();
    await page.reload();
    const transcript = page.locator('[data-item-id="transcript"]');
    await transcript.getByText(`The link we e-mailed to ${counselor} expired on`).waitFor();
    expect(await transcript.textContent()).toContain('Requested on');
    await transcript.getByRole('button', { name: texts.ask_counselor }).waitFor();
    expect(await transcript.getByRole('button', { name: texts.withdraw_request }).count()).toBe(0);
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await screenshot(page, 'counselor-request-expired');
    // asked again: a new link, and nothing said of the old one
    await transcript.getByRole('button', { name: texts.ask_counselor }).click();
    await transcript.getByRole('button', { name: texts.send_request }).click();
    await transcript.getByRole('button', { name: texts.withdraw_request }).waitFor();
    expect(await transcript.textContent()).not.toContain('expired');
    await context.close();
  }, 120_000);

  it('takes the applicant\'s own upload of their test scores from the completion page', async () => {
    const { page, context } = await signedInPage(browser, server, {
      email: 'ada.scores@example.org', answers: { ...completeApplication(), test_optional: 'Y' }, status: 'submitted',
    }, { path: '/completion' });
    const scores = page.locator('[data-item-id="test-scores"]');
    const chooser = scores.getByLabel(texts.upload_yourself);
    await chooser.waitFor({ state: 'attached' });
    expect(await scores.getByRole('button', { name: texts.ask_counselor }).count()).toBe(0);
    await chooser.setInputFiles({ name: 'scores.png', mimeType: 'image/png', buffer: await makeImage(browser, 'png', { width: 400, height: 300 }, 'SAT 1450') });
    await expect.poll(() => scores.textContent(), { timeout: 60_000 }).toContain('Received on');
    await expect.poll(() => scores.locator('[role="status"]').textContent()).toBe(`${fileItems.items.find((item) => item.id === 'test-scores')!.title}: ${texts.state_received}`);
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await screenshot(page, 'item-upload-received');

    // a file the rules refuse is said at once, in an alert tied to the chooser
    await chooser.setInputFiles({ name: 'scores.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    const alert = scores.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(fill(texts.upload_failed, { message: '' }).trim());
    expect((await chooser.getAttribute('aria-describedby'))!.split(' ')).toContain(await alert.getAttribute('id'));
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await screenshot(page, 'item-upload-refused');
    await context.close();
  }, 120_000);
});
