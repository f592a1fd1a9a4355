/**
 * A page added by staff in schema files alone (a page file, its ui file, its keys in the
 * data model and a step in the frame) is a step of the application like the others: it is
 * built, shown, filled and validated in Chromium, saved, in the PDF copy and in the
 * office's export, with no TypeScript written. The copy of the project is built and run as
 * `npm start` runs it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import frame from '../../schemas/text/frame.json';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { openPage } from '../../support/browser.ts';
import { fillAnswers } from '../helpers/form-filler.ts';
import { withoutWhitespace } from '../helpers/pdf-text.ts';
import { confirmedApplicantOverHttp, startProcessServer, type ProcessServer } from '../helpers/process-server.ts';
import { copyProject, type ProjectCopy } from '../helpers/project-copy.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

const STATEMENT = 'I tutor younger students in mathematics every weekend.';

/** The short page staff add: one section, a coded answer from an existing list, a text with its own limit. */
function addScholarshipsPage(copy: ProjectCopy): void {
  copy.writeJson('pages/scholarships.schema.json', {
    $id: 'pages/scholarships',
    version: 1,
    title: 'Scholarships',
    type: 'object',
    properties: {
      scholarships: {
        title: 'Scholarships',
        description: 'Tell us whether you would like to be considered for merit scholarships.',
        type: 'object',
        properties: {
          scholarship_interest: { title: 'Would you like to be considered for merit scholarships?', $ref: '../options/yes-no.json' },
          scholarship_statement: { title: 'Why should we consider you?', type: 'string', maxLength: 500 },
        },
        required: ['scholarship_interest'],
      },
    },
  });
  copy.writeJson('pages/scholarships.ui.json', {
    'ui:order': ['scholarships'],
    scholarships: { scholarship_interest: { 'ui:widget': 'radio' }, scholarship_statement: { 'ui:widget': 'textarea' } },
  });
  copy.editJson('data-model.json', (model) => {
    model.keys.scholarship_interest = { type: 'code' };
    model.keys.scholarship_statement = { type: 'string' };
  });
  // a step put before the last: no number written, the steps are numbered in their order
  copy.editJson('text/frame.json', (text) => {
    const last = text.steps.pop();
    text.steps.push({ path: '/scholarships', label: 'Scholarships' }, last);
  });
  // its Spanish, beside it: check:schemas refuses a page an applicant could not read in Spanish
  copy.writeJson('i18n/es/pages/scholarships.schema.json', {
    title: 'Becas',
    properties: {
      scholarships: {
        title: 'Becas',
        description: 'Díganos si desea que le tengamos en cuenta para las becas por méritos.',
        properties: {
          scholarship_interest: { title: '¿Desea que le tengamos en cuenta para las becas por méritos?' },
          scholarship_statement: { title: '¿Por qué deberíamos tenerle en cuenta?' },
        },
      },
    },
  });
  copy.editJson('i18n/es/text/frame.json', (text) => {
    text.steps.push({ path: '/scholarships', label: 'Becas' });
  });
}

describe('a page added in schema files alone', () => {
  let copy: ProjectCopy;
  let server: ProcessServer;
  let browser: Browser;

  beforeAll(async () => {
    copy = copyProject();
    addScholarshipsPage(copy);
    copy.build();
    server = await startProcessServer({ root: copy.dir, readyTimeoutMs: 240_000 });
    browser = await workerBrowser();
  }, 600_000);

  afterAll(async () => {
    await closeContexts(browser);
    await server?.close();
    copy?.remove();
  });

  it('is a step of its own: filled and checked in Chromium, saved, in the PDF copy and the export', async () => {
    const email = 'scholar@example.org';
    const api = await confirmedApplicantOverHttp(server, email);
    const context = await browser.newContext();
    await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
    const { page } = await openPage(context);

    await page.goto(`${server.url}/scholarships`);
    await page.getByRole('heading', { level: 1, name: 'Scholarships' }).waitFor();
    // drawn by the server from the schema files alone, then taken over by the browser
    await page.locator('#root:not([data-drawn]) [data-page="scholarships"]').waitFor();
    const steps = page.getByRole('navigation', { name: frame.steps_label }).getByRole('link');
    // numbered in their order by the generator: the page put third is 3, the last 4
    await expect.poll(() => steps.allInnerTexts()).toEqual([
      expect.stringMatching(/^1\s*About You/), expect.stringMatching(/^2\s*Your Education/),
      expect.stringMatching(/^3\s*Scholarships/), expect.stringMatching(/^4\s*Final Step/),
    ]);

    // the page's own rules: the limit written in its schema holds in the browser
    const statement = page.getByLabel('Why should we consider you?');
    await statement.fill('x'.repeat(600));
    await expect.poll(async () => (await statement.inputValue()).length).toBeLessThanOrEqual(500);
    await statement.fill(STATEMENT);
    await fillAnswers(page, { scholarship_interest: 'Yes' });
    await page.locator('[data-save-state="saved"]').waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await api.get<{ answer: Record<string, unknown> }>('/api/profile')).body.answer)
      .toMatchObject({ scholarship_interest: 'Y', scholarship_interest_desc: 'Yes', scholarship_statement: STATEMENT });

    await page.getByRole('button', { name: frame.actions.continue }).click();
    await page.waitForURL(`${server.url}/final-steps`);
    await context.close();

    // the new page counts at submit: without its required answer the application is refused
    expect((await api.put('/api/answer', { ...completeApplication(), scholarship_interest: '' })).status).toBe(200);
    const refused = await api.post('/api/submit');
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('scholarships');
    expect((await api.put('/api/answer', { scholarship_interest: 'Y' })).status).toBe(200);
    expect((await api.post('/api/submit')).status).toBe(200);

    await expect.poll(async () => (await api.get<{ status: string }>('/api/pdf')).body.status, { timeout: 60_000 }).toBe('COMPLETED');
    const pdf = await fetch(`${server.url}/api/pdf/file`, { headers: { cookie: [...api.cookies].map(([name, value]) => `${name}=${value}`).join('; '), 'sec-fetch-site': 'same-origin' } });
    expect(pdf.status).toBe(200);
    const work = mkdtempSync(join(tmpdir(), 'page-from-schemas-'));
    try {
      writeFileSync(join(work, 'copy.pdf'), Buffer.from(await pdf.arrayBuffer()));
      const text = execFileSync('pdftotext', [join(work, 'copy.pdf'), '-'], { encoding: 'utf8' });
      expect(text).toContain('Scholarships');
      // the copy wraps long answers across lines
      expect(withoutWhitespace(text)).toContain(withoutWhitespace(STATEMENT));

      // the office's export, run as the office runs it once the server has stopped
      await server.stop();
      copy.run('scripts/export-applications.ts', ['--format', 'jsonl', '--out', join(work, 'out')], { DATA_DIR: server.dataDir, DATABASE_URL: '' });
      const files = readdirSync(join(work, 'out'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.jsonl'));
      const records = files.flatMap((name) => readFileSync(join(work, 'out', name), 'utf8').trim().split('\n').map((line) => JSON.parse(line)));
      expect(JSON.stringify(records)).toContain(`"scholarship_statement":${JSON.stringify(STATEMENT)}`);
      expect(JSON.stringify(records)).toContain('"scholarship_interest":"Y"');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    // a ceiling on a hang: Chromium, the PDF copy and a spawned export on a machine that may be busy
  }, 240_000);
});
