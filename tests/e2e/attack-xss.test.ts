import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signServiceToken } from '../../src/server/pdf/service-token.ts';
import { STRONG_PASSWORD, type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { openPage, screenshot, type PageProblems } from '../../support/browser.ts';
import { makePdf } from '../../support/document-fixtures.ts';
import { fillAnswers } from '../helpers/form-filler.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { conversionResult, uploadThroughApi } from '../../support/uploads.ts';
import { withoutWhitespace } from '../helpers/pdf-text.ts';
import { until } from '../../support/until.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

/**
 * Script in answers: markup typed into the form is stored as text and shown as
 * text, in the form, the welcome box, the read-only service view and the PDF copy. Nothing
 * runs: no dialog, no global set, no element made from it, no request for its image, no
 * Content-Security-Policy violation.
 */

const FIRST_NAME = '<img src=x onerror="window.__xss=1;alert(1)">';
const LAST_NAME = '"><script>window.__xss=2</script>';
const MIDDLE_NAME = '<svg onload=alert(3)>{{7*7}}';
const FILE_NAME = '<img src=x onerror=alert(4)>.pdf';

let server: TestServer;
let browser: Browser;
let counter = 0;

beforeAll(async () => {
  server = await startTestServer();
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.close();
});

interface Watched {
  page: Page;
  problems: PageProblems;
  dialogs: string[];
  requested: string[];
}

/** A page that records dialogs and every address it asks for, besides console errors and CSP violations. */
async function watchedPage(context: BrowserContext): Promise<Watched> {
  const { page, problems } = await openPage(context);
  const dialogs: string[] = [];
  const requested: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (request) => requested.push(request.url()));
  return { page, problems, dialogs, requested };
}

async function expectNothingRan(watched: Watched): Promise<void> {
  const { page } = watched;
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await page.locator('img[src="x"], svg[onload], script:not([src])').count()).toBe(0);
  expect(watched.dialogs).toEqual([]);
  expect(watched.requested.filter((url) => new URL(url).pathname === '/x')).toEqual([]);
  expect(watched.problems.errors).toEqual([]);
}

async function signedIn(): Promise<{ context: BrowserContext; api: ApiSession; username: string }> {
  const username = `xss${++counter}@example.org`;
  const api = await createConfirmedApplicant(server.app, username);
  const context = await browser.newContext();
  await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
  return { context, api, username };
}

describe('script typed as answers, in Chromium', () => {
  it('shows markup typed into the form as text, after saving and after a reload, and in the welcome box', async () => {
    const { context, api, username } = await signedIn();
    const watched = await watchedPage(context);
    const { page } = watched;
    await page.goto(`${server.url}/about`);
    await page.locator('#first_name').waitFor();
    await page.locator('#first_name').pressSequentially(FIRST_NAME);
    await fillAnswers(page, { last_name: LAST_NAME, middle_name: MIDDLE_NAME });
    await page.locator('#middle_name').blur();
    await page.locator('[data-save-state="saved"]').waitFor({ timeout: 30_000 });
    expect((await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer).toMatchObject({ first_name: FIRST_NAME, last_name: LAST_NAME, middle_name: MIDDLE_NAME });
    await expectNothingRan(watched);

    await page.reload();
    await page.locator('#first_name').waitFor();
    expect(await page.locator('#first_name').inputValue()).toBe(FIRST_NAME);
    expect(await page.locator('#last_name').inputValue()).toBe(LAST_NAME);
    expect(await page.locator('#middle_name').inputValue()).toBe(MIDDLE_NAME);
    await expectNothingRan(watched);
    await context.close();

    // a returning applicant is greeted by name: the name is text there too
    await api.post('/public/login', { username, password: STRONG_PASSWORD });
    const again = await browser.newContext();
    await again.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
    const greeted = await watchedPage(again);
    await greeted.page.goto(`${server.url}/about`);
    const title = greeted.page.locator('.welcome-box .welcome-title');
    await title.waitFor();
    expect(await title.textContent()).toContain(FIRST_NAME);
    await screenshot(greeted.page, 'attack-xss-welcome');
    await expectNothingRan(greeted);
    await again.close();
  });

  it('shows a file name with markup as text', async () => {
    const { context, api } = await signedIn();
    await uploadThroughApi(server.app, api, 'supporting_document', FILE_NAME, await makePdf(['Letter']));
    expect((await conversionResult(api, 'supporting_document')).status).toBe('COMPLETED');
    const watched = await watchedPage(context);
    await watched.page.goto(`${server.url}/final-steps`);
    const name = watched.page.locator('[data-field-key="supporting_document"] .file-name');
    await name.waitFor();
    expect(await name.textContent()).toBe(FILE_NAME);
    await expectNothingRan(watched);
    await context.close();
  });

  it('shows the answers as text in the read-only service view and in the PDF copy', async () => {
    const { context, api, username } = await signedIn();
    await context.close();
    expect((await api.put('/api/answer', { first_name: FIRST_NAME, last_name: LAST_NAME, middle_name: MIDDLE_NAME })).status).toBe(200);
    const id = (await server.app.db.selectFrom('applicants').select('id').where('email', '=', username).executeTakeFirstOrThrow()).id;

    const view = await browser.newContext();
    const watched = await watchedPage(view);
    await watched.page.goto(`${server.url}/about?service_token=${encodeURIComponent(signServiceToken(server.app.serviceSecret, id, 60_000))}`);
    await watched.page.locator('.page-form-service').waitFor();
    expect(await watched.page.locator('[data-field-key="first_name"]').textContent()).toContain(FIRST_NAME);
    expect(await watched.page.locator('[data-field-key="last_name"]').textContent()).toContain(LAST_NAME);
    expect(await watched.page.locator('[data-field-key="middle_name"]').textContent()).toContain(MIDDLE_NAME);
    await screenshot(watched.page, 'attack-xss-service-view');
    await expectNothingRan(watched);
    await view.close();

    // the PDF copy prints the same view in the server's Chromium
    await api.get('/api/pdf');
    await until(async () => {
      const { status } = (await api.get<{ status: string }>('/api/pdf')).body;
      expect(status).not.toBe('FAILED');
      return status === 'COMPLETED' ? status : undefined;
    }, 'the PDF copy', 90_000);
    const download = await server.app.inject({ method: 'GET', url: '/api/pdf/file', headers: { cookie: [...api.cookies].map(([name, value]) => `${name}=${value}`).join('; ') } });
    expect(download.statusCode).toBe(200);
    const file = join(mkdtempSync(join(tmpdir(), 'attack-xss-')), 'application.pdf');
    writeFileSync(file, download.rawPayload);
    const text = withoutWhitespace(execFileSync('pdftotext', ['-raw', file, '-']).toString());
    for (const answer of [FIRST_NAME, LAST_NAME, MIDDLE_NAME]) expect(text).toContain(withoutWhitespace(answer));
  }, 120_000);
});
