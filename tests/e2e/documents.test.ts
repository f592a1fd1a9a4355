import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import documentsText from '../../schemas/documents.json';
import frame from '../../schemas/text/frame.json';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { axeViolations } from '../helpers/axe.ts';
import { startHoldingHttpProxy } from '../helpers/holding-http-proxy.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { makeDocx, makeImage, makePdf } from '../../support/document-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { conversionResult, uploadThroughApi } from '../../support/uploads.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

const text = documentsText.messages;
let server: TestServer;
let browser: Browser;
let counter = 0;
const folder = mkdtempSync(join(tmpdir(), 'documents-e2e-'));

beforeAll(async () => {
  server = await startTestServer();
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.close();
});

async function signedIn(path: string): Promise<{ page: Page; api: ApiSession }> {
  const api = await createConfirmedApplicant(server.app, `files${++counter}@example.org`);
  const context = await browser.newContext({ acceptDownloads: true });
  await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
  const { page } = await openPage(context, { expectedErrors: [/Failed to load resource/, /failed with/] });
  await page.goto(`${server.url}${path}`);
  await page.locator('[data-page]').waitFor();
  return { page, api };
}

function file(name: string, bytes: Buffer): string {
  const path = join(folder, name);
  writeFileSync(path, bytes);
  return path;
}

const question = (page: Page, key: string) => page.locator(`[data-field-key="${key}"]`);

describe('documents in Chromium', () => {
  it('uploads a PNG, a Word file and a PDF, each converted; deletes one after confirming', async () => {
    const { page, api } = await signedIn('/education-ug');
    const png = await makeImage(browser, 'png');

    await page.getByRole('tab', { name: 'Upload my transcript' }).click();
    await page.locator('#hs_transcript').setInputFiles(file('transcript.png', png));
    await question(page, 'hs_transcript').locator('[data-document-phase="done"]').waitFor({ timeout: 30_000 });
    expect(await question(page, 'hs_transcript').locator('.file-name').textContent()).toBe('transcript.png');
    expect(await question(page, 'hs_transcript').locator('.file-size').textContent()).toMatch(/^\d+ KB$/);

    await page.getByRole('tab', { name: 'Upload my résumé' }).click();
    await page.locator('#activ_resume').setInputFiles(file('resume.docx', await makeDocx()));
    await question(page, 'activ_resume').locator('[data-document-phase="done"]').waitFor({ timeout: 30_000 });
    await screenshot(page, 'documents-uploaded');
    expect(await axeViolations(page, { strict: true })).toEqual([]);

    await page.getByRole('link', { name: /Final Step/ }).click();
    await page.locator('#supporting_document').setInputFiles(file('letter.pdf', await makePdf()));
    await question(page, 'supporting_document').locator('[data-document-phase="done"]').waitFor({ timeout: 30_000 });

    const answers = (await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer;
    expect(answers).toMatchObject({ hs_transcript: 'ANSWERED', activ_resume: 'ANSWERED', supporting_document: 'ANSWERED' });

    // delete, after confirming
    await question(page, 'supporting_document').getByRole('button', { name: /Delete/ }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(text.delete_confirm).waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await dialog.getByRole('button', { name: text.cancel }).click();
    expect((await api.get('/api/document-answer')).body).toHaveProperty('supporting_document');
    await question(page, 'supporting_document').getByRole('button', { name: /Delete/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: text.delete, exact: true }).click();
    await page.locator('#supporting_document').waitFor();
    expect((await api.get('/api/document-answer')).body).not.toHaveProperty('supporting_document');
    await page.context().close();
  }, 120_000);

  it('deletes the file of the tab being left, and refuses to switch while a file converts', async () => {
    const { page, api } = await signedIn('/education-ug');
    // the conversion reports "in progress" until the test lets it finish
    let release = false;
    await page.route('**/api/pdf/document-answer/hs_transcript', (route) => (route.request().method() === 'GET' && !release
      ? route.fulfill({ status: 200, contentType: 'application/json', body: '{"status":"IN_PROGRESS"}' })
      : route.continue()));
    await page.getByRole('tab', { name: 'Upload my transcript' }).click();
    await page.locator('#hs_transcript').setInputFiles(file('transcript.pdf', await makePdf()));
    await question(page, 'hs_transcript').locator('[data-document-phase="converting"]').waitFor();
    await page.getByRole('tab', { name: 'Enter my classes' }).click();
    const busy = page.getByRole('dialog', { name: text.in_progress_title });
    await busy.waitFor();
    expect(await busy.textContent()).toContain(text.in_progress_text);
    await busy.getByRole('button', { name: text.ok }).click();
    expect(await page.getByRole('tab', { name: 'Upload my transcript' }).getAttribute('aria-selected')).toBe('true');
    release = true;
    const converted = question(page, 'hs_transcript').locator('[data-document-phase="done"]');
    await converted.waitFor({ timeout: 30_000 });
    expect((await api.get('/api/document-answer')).body).toHaveProperty('hs_transcript');
    // leaving the tab deletes the file and its conversion, once the applicant agrees
    await page.getByRole('tab', { name: 'Enter my classes' }).click();
    const ask = page.getByRole('alertdialog', { name: frame.tab_switch.title.replace('{tab}', 'Enter my classes') });
    expect(await ask.textContent()).toContain('Switching removes the transcript you uploaded.');
    await ask.getByRole('button', { name: frame.tab_switch.confirm }).click();
    await page.locator('#hs_class_name').waitFor();
    await expect.poll(async () => (await api.get('/api/document-answer')).body).toEqual({});
    expect((await api.get('/api/pdf/document-answer/hs_transcript')).body).toEqual({ status: 'NOT_ANSWERED' });
    await page.context().close();
  }, 90_000);

  it('refuses an oversize, empty, long-named, wrongly typed and disguised file with the spec messages', async () => {
    const { page } = await signedIn('/final-steps');
    const input = page.locator('#supporting_document');
    const problem = question(page, 'supporting_document').locator('.field-error');
    const cases: [string, Buffer, string][] = [
      ['big.pdf', Buffer.alloc(documentsText.max_bytes + 1, 0x25), text.too_large],
      ['empty.pdf', Buffer.alloc(0), text.empty],
      [`${'a'.repeat(29)}.pdf`, await makePdf(), text.name_too_long],
      ['notes.txt', Buffer.from('hello'), text.wrong_type],
    ];
    for (const [name, bytes, message] of cases) {
      await input.setInputFiles(file(name, bytes));
      await expect.poll(() => problem.textContent()).toBe(message);
    }
    // a program renamed .png passes the browser's checks; the server sniffs its bytes
    await input.setInputFiles(file('photo.png', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(4096, 0x90)])));
    const refusal = text.not_real_type.replace('{extension}', 'PNG');
    await page.locator('.bp6-toast', { hasText: refusal }).waitFor({ timeout: 30_000 });
    expect(await page.locator('.bp6-toast', { hasText: refusal }).textContent()).toContain('Error uploading file for "Supporting Document"');
    await expect.poll(() => problem.textContent()).toBe(refusal);
    await page.context().close();
  }, 60_000);

  it('downloads a PDF copy with the answers as the service view shows them and the documents appended', async () => {
    const { page, api } = await signedIn('/about');
    await api.put('/api/answer', { ...completeApplication(), hs_ceeb: '141234', first_name: 'Pdfina' });
    await uploadThroughApi(server.app, api, 'hs_transcript', 'transcript.png', await makeImage(browser, 'png', undefined, 'Transcript page image'));
    await uploadThroughApi(server.app, api, 'activ_resume', 'resume.docx', await makeDocx(['Resume of Pdfina', 'Debate club captain']));
    await uploadThroughApi(server.app, api, 'supporting_document', 'letter.pdf', await makePdf(['Letter from a teacher'], 2));
    for (const key of ['hs_transcript', 'activ_resume', 'supporting_document']) expect((await conversionResult(api, key)).status).toBe('COMPLETED');
    await api.put('/api/tabs', { tab_id: 'hs_classes_tabs', chosen_tab: 'transcript' });
    await api.put('/api/tabs', { tab_id: 'activities_tabs', chosen_tab: 'resume' });
    expect((await api.post('/api/submit')).status).toBe(200);

    await page.goto(`${server.url}/completion`);
    const downloadEvent = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: text.download_pdf }).click();
    const download = await downloadEvent;
    const path = join(folder, 'application.pdf');
    await download.saveAs(path);
    const content = execFileSync('pdftotext', ['-layout', path, '-']).toString();
    expect(content).toContain('Pdfina');
    expect(content).toMatch(/\[X\] Female/);
    expect(content).toMatch(/\[ \] Male/);
    expect(content).toContain('Central High School (Ceeb: 141234)');
    expect(content).toContain('Document attached for "High School'); // the PDF's column wraps the label
    expect(content).toContain('Document attached for "Résumé"');
    expect(content).toContain('Debate club captain');
    expect(content).toContain('Letter from a teacher (page 2)');
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [path]).toString())![1]);
    expect(pages).toBeGreaterThanOrEqual(3 + 1 + 1 + 2); // three application pages at least, then the documents

    // a changed answer makes the next download fresh
    const before = (await server.app.db.selectFrom('application_pdfs').select('fingerprint').executeTakeFirstOrThrow()).fingerprint;
    await api.post('/public/login', { username: `files${counter}@example.org`, password: 'Maple-Harbor-2031!' });
    const refreshed = await api.get<{ status: string }>('/api/pdf');
    expect(refreshed.body.status).toBe('COMPLETED'); // nothing changed: the same PDF
    const after = (await server.app.db.selectFrom('application_pdfs').select('fingerprint').executeTakeFirstOrThrow()).fingerprint;
    expect(after).toBe(before);
    await page.context().close();
  }, 120_000);

  it('after a reload during a conversion, shows it converting, polls on, and keeps the tabs from switching', async () => {
    // a server that runs no jobs: the Word file stays queued for conversion however long the
    // reload takes (a converter timed out on a busy machine would end it FAILED); the browser
    // reaches it through a proxy that holds the first page's status check, so the reload cuts
    // off a check on its way, as a slow connection does
    const proxy = await startHoldingHttpProxy();
    const slow = await startTestServer({ env: { RUN_JOBS: 'false', PUBLIC_URL: proxy.url } });
    proxy.forwardTo(slow.url);
    try {
      const api = await createConfirmedApplicant(slow.app, `files-reload${++counter}@example.org`);
      const context = await browser.newContext();
      await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: proxy.url })));
      const { page } = await openPage(context, { expectedErrors: [/Failed to load resource/, /failed with/] });
      await page.goto(`${proxy.url}/education-ug`);
      await page.locator('[data-page]').waitFor();
      await page.getByRole('tab', { name: 'Upload my transcript' }).click();
      proxy.hold((request) => request.method === 'GET' && request.url === '/api/pdf/document-answer/hs_transcript');
      await page.locator('#hs_transcript').setInputFiles(file('transcript-reload.docx', await makeDocx()));
      await question(page, 'hs_transcript').locator('[data-document-phase="converting"]').waitFor();
      await proxy.held();

      const polls: string[] = [];
      let reloaded = false;
      page.on('request', (request) => {
        if (reloaded && request.method() === 'GET' && request.url().endsWith('/api/pdf/document-answer/hs_transcript')) polls.push(request.url());
      });
      reloaded = true;
      proxy.stopHolding(); // the new page's checks pass; the one held is cut off by the reload
      await page.reload();
      await page.locator('#root:not([data-drawn]) [data-page="education-ug"]').waitFor();
      await question(page, 'hs_transcript').locator('[data-document-phase="converting"]').waitFor();
      expect(await question(page, 'hs_transcript').locator('.file-progress').textContent()).toContain('transcript-reload.docx');
      await expect.poll(() => polls.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2); // polling, not one look
      // the check cut off was not taken for a failure: the file is still queued on the server
      expect((await slow.app.db.selectFrom('documents').select('status').executeTakeFirstOrThrow()).status).toBe('UNPROCESSED');
      await page.getByRole('tab', { name: 'Enter my classes' }).click();
      await page.getByRole('dialog', { name: text.in_progress_title }).waitFor();
      await context.close();
    } finally {
      await slow.close();
      await proxy.close();
    }
  });
});
