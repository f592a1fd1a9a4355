import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dataModel from '../../schemas/data-model.json';
import fileItems from '../../schemas/file-items.json';
import partner from '../../schemas/partner.json';
import { instanceKey } from '../../src/shared/answers/key-naming.ts';
import { form } from '../../src/shared/form/form-model-data.ts';
import { exportApplications, type ExportOptions } from '../../src/server/export/export-applications.ts';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { makePdf } from '../../support/document-fixtures.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';
import { conversionResult, uploadThroughApi } from '../../support/uploads.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';

/** The columns as the data model lists its keys: every key (repeats written out) in order, a coded one followed by its label. */
function expectedAnswerColumns(): string[] {
  const columns: string[] = [];
  for (const [key, entry] of Object.entries(dataModel.keys) as [string, { type: string; instances?: number; prefix?: string }][]) {
    for (let n = 1; n <= (entry.instances ?? 1); n++) {
      const name = instanceKey(key, entry.prefix ?? key, n);
      if (!columns.includes(name)) columns.push(name);
      if (entry.type === 'code' && !columns.includes(`${name}_desc`)) columns.push(`${name}_desc`);
      if (entry.type === 'document') columns.push(`${name}_file_name`, `${name}_file_size`, `${name}_file_path`);
    }
  }
  return columns;
}

/** The application file's columns, from schemas/file-items.json itself: completion, decision, then each item's state and change time. */
const FILE_COLUMNS = ['file_complete_at', 'decision_due', ...fileItems.items.flatMap((item) => [`${item.id.replaceAll('-', '_')}_state`, `${item.id.replaceAll('-', '_')}_changed_at`])];
const OWN_COLUMNS = ['applicant_id', 'email', 'web_status', 'submitted_at', 'status_history', 'language', ...FILE_COLUMNS];

const csvRows = (path: string) => parse(readFileSync(path), { columns: false, bom: true }) as string[][];

describe.each(databaseTargets())('export of applications on $name', (target) => {
  let server: TestServer;
  const out = mkdtempSync(join(tmpdir(), 'export-test-'));
  let counter = 0;
  const submitted: { id: string; email: string; api: ApiSession }[] = [];
  let inProgressEmail = '';
  let betweenSubmits = '';
  /** An export as JSON Lines, a page of one application at a time, with its lines read back. */
  const readRun = async (since?: string | null) => {
    const { manifest } = await exportApplications(server.app.db, { all: false, format: 'jsonl', outDir: join(out, 'runs'), pageSize: 1, ...(since ? { since } : {}) });
    const lines = readFileSync(join(out, 'runs', manifest.file), 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    return { manifest, lines };
  };
  const run = (options: Partial<ExportOptions> = {}) => exportApplications(server.app.db, { all: false, format: 'csv', outDir: out, ...options });

  async function submitOne(withDocument: boolean) {
    const email = `export${++counter}@example.org`;
    const api = await createConfirmedApplicant(server.app, email);
    await api.post('/api/web-status', { web_status: 'started' });
    await api.put('/api/answer', completeApplication());
    if (withDocument) {
      await uploadThroughApi(server.app, api, 'supporting_document', 'letter.pdf', await makePdf());
      expect((await conversionResult(api, 'supporting_document')).status).toBe('COMPLETED');
    }
    expect((await api.post('/api/submit')).status).toBe(200);
    const id = (await server.app.db.selectFrom('applicants').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    submitted.push({ id, email, api });
  }

  beforeAll(async () => {
    server = await startTestServerOn(target);
    await submitOne(true);
    // the office has the first one's transcript: its file is complete (no test scores asked of it)
    await server.app.fileItems.mark(submitted[0]!.id, 'transcript', { state: 'received', by: 'office:test' });
    // a question removed from the schemas this cycle: its stored answers keep their column (and a formula stays text)
    await server.app.db.insertInto('answers').values({ applicant_id: submitted[0]!.id, key: 'old_question', value: JSON.stringify('=HYPERLINK("x")'), schema_version: 1, updated_at: new Date() }).execute();
    inProgressEmail = `export${++counter}@example.org`;
    const inProgress = await createConfirmedApplicant(server.app, inProgressEmail);
    await inProgress.put('/api/answer', { first_name: 'Half', gender: 'M' });
    betweenSubmits = new Date().toISOString();
    await submitOne(false);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('has one column per data model key in its order, each option\'s label from the option lists, then removed keys', async () => {
    const { manifest } = await run();
    expect(manifest).toMatchObject({ scope: 'submitted', since: null, rows: 2 });
    const [header, ...rows] = csvRows(join(out, manifest.file));
    expect(header).toEqual([...OWN_COLUMNS, ...expectedAnswerColumns(), 'old_question']);
    expect(manifest.columns).toBe(header!.length);
    expect(rows.map((row) => row[1])).toEqual(submitted.map((entry) => entry.email)); // in submit order

    const row = Object.fromEntries(header!.map((name, index) => [name, rows[0]![index]!]));
    const answers = completeApplication();
    for (const [key, value] of Object.entries(answers)) {
      const field = form.fields[key]!;
      expect(row[key]).toBe(String(value));
      if (field.options) {
        // the label is the option list's, looked up here without the export's code
        expect(row[`${key}_desc`]).toBe(form.options[field.options]!.find((option) => option.value === value)!.label);
      }
    }
    expect(row.entry_term_desc).toBe(partner.intake_label); // a code outside the form lists: its stored label
    expect(row.web_status).toBe('submitted');
    expect(row.language).toBe('en'); // the applicant's language, beside data that is the same in every language
    expect(row.submitted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(row.status_history).toMatch(/^started \S+; validating \S+; submitted \S+$/);
    expect(row.supporting_document).toBe('ANSWERED');
    expect(row.old_question).toBe('\'=HYPERLINK("x")');
    // the application file: complete, with its decision day, each item's state and when it changed
    const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
    expect(row).toMatchObject({ file_complete_at: expect.stringMatching(iso), decision_due: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) });
    expect(row).toMatchObject({ transcript_state: 'received', transcript_changed_at: expect.stringMatching(iso), test_scores_state: 'missing', test_scores_changed_at: '' });
    const second = Object.fromEntries(header!.map((name, index) => [name, rows[1]![index]!]));
    expect(second).toMatchObject({ file_complete_at: '', decision_due: '', transcript_state: 'missing', counselor_recommendation_state: 'missing' });
    expect(rows[1]![header!.indexOf('old_question')]).toBe('');
  });

  it('writes the same files again for the same --since, and only later submits from a later --since', async () => {
    const first = await run({ format: 'jsonl' });
    const bytes = readFileSync(join(out, first.manifest.file));
    const manifestPath = join(out, `${first.manifest.file}.manifest.json`);
    const manifestBytes = readFileSync(manifestPath);
    const again = await run({ format: 'jsonl' });
    expect(readFileSync(join(out, again.manifest.file)).equals(bytes)).toBe(true);
    expect(readFileSync(manifestPath).equals(manifestBytes)).toBe(true);
    expect(existsSync(`${join(out, first.manifest.file)}.partial`)).toBe(false);

    const lines = bytes.toString('utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(Object.keys(lines[0]!)).toEqual([...OWN_COLUMNS, ...expectedAnswerColumns(), 'old_question']);
    expect((lines[0]!.status_history as { status: string }[]).map((entry) => entry.status)).toEqual(['started', 'validating', 'submitted']);
    expect(lines[0]!.legal_agree).toBe(true);
    expect(lines[0]!.old_question).toBe('=HYPERLINK("x")'); // JSON keeps the value as it is
    // the next run starts a minute before the last submit: a submit committed late is not missed
    expect(Date.parse(first.manifest.last_at!) - Date.parse(first.manifest.next_since!)).toBe(60_000);

    const later = await run({ since: betweenSubmits });
    expect(later.manifest.file).not.toBe(first.manifest.file);
    expect(csvRows(join(out, later.manifest.file)).slice(1).map((row) => row[1])).toEqual([submitted[1]!.email]);

    const all = await run({ all: true });
    expect(csvRows(join(out, all.manifest.file)).slice(1).map((row) => row[1]).sort()).toEqual([...submitted.map((entry) => entry.email), inProgressEmail].sort());
  });

  it('with --documents writes each converted document and the current application PDF beside the file, once, and queues a missing copy', async () => {
    const [withDocument] = submitted;
    const ready = () => until(async () => {
      const { body } = await withDocument!.api.get<{ status: string }>('/api/pdf');
      return ['UNPROCESSED', 'IN_PROGRESS'].includes(body.status) ? undefined : body.status;
    }, 'the application PDF');
    expect(await ready()).toBe('COMPLETED');

    const first = await run({ documents: server.app.storage });
    expect(first.manifest.documents).toEqual({ files: 2, application_pdf_missing: 1 });
    expect(first.documents).toMatchObject({ written: 2, kept: 0 });
    const folder = join(out, 'documents', withDocument!.id);
    for (const name of ['supporting_document.pdf', 'application.pdf']) {
      expect(readFileSync(join(folder, name)).subarray(0, 5).toString()).toBe('%PDF-');
    }
    expect(existsSync(join(out, 'documents', submitted[1]!.id, 'application.pdf'))).toBe(false);
    const again = await run({ documents: server.app.storage });
    expect(again.documents).toMatchObject({ written: 0, kept: 2 });
    expect(again.manifest).toEqual(first.manifest);

    // the missing copy was queued by the first run (once): the server makes it, and the next run copies it
    expect(first.documents).toMatchObject({ applicationPdfMissing: 1, applicationPdfQueued: 1 });
    expect(again.documents).toMatchObject({ applicationPdfMissing: 1, applicationPdfQueued: 0 });
    await until(async () => {
      const row = await server.app.db.selectFrom('application_pdfs').select('status').where('applicant_id', '=', submitted[1]!.id).executeTakeFirst();
      return row && !['UNPROCESSED', 'IN_PROGRESS'].includes(row.status) ? row.status : undefined;
    }, 'the queued application PDF');
    const third = await run({ documents: server.app.storage });
    expect(third.documents).toMatchObject({ written: 1, kept: 2, applicationPdfMissing: 0 });
    expect(readFileSync(join(out, 'documents', submitted[1]!.id, 'application.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('loses no application submitted while an export runs: what a run misses, the next run from its next_since has', async () => {
    const waiting: { email: string; api: ApiSession }[] = [];
    for (let n = 0; n < 8; n++) {
      const email = `export-during${n}@example.org`;
      const api = await createConfirmedApplicant(server.app, email);
      await api.post('/api/web-status', { web_status: 'started' });
      await api.put('/api/answer', { ...completeApplication(), first_name: `During${n}` });
      waiting.push({ email, api });
    }

    // each submit with an export beside it, reading a page of one application at a time
    const during: Awaited<ReturnType<typeof readRun>>[] = [];
    for (const { api } of waiting) {
      const [submit, run] = await Promise.all([api.post('/api/submit'), readRun()]);
      expect(submit.status).toBe(200);
      during.push(run);
    }

    const everyone = [...submitted.map((entry) => entry.email), ...waiting.map((entry) => entry.email)].sort();
    for (const run of during) {
      const emails = run.lines.map((line) => line.email as string);
      expect(new Set(emails).size).toBe(emails.length); // no application twice in one file
      for (const line of run.lines) {
        // only whole submitted applications: the submit's status, time and answers together
        expect((line.status_history as { status: string }[]).at(-1)?.status).toBe('submitted');
        expect(line.submitted_at).toBeTruthy();
        const mine = waiting.findIndex((entry) => entry.email === line.email);
        if (mine >= 0) expect(line.first_name).toBe(`During${mine}`);
      }
      const next = await readRun(run.manifest.next_since);
      expect([...new Set([...emails, ...next.lines.map((line) => line.email as string)])].sort()).toEqual(everyone);
    }
  });

  // a submit's time is its transaction's start; held behind another's lock, it commits after a run that ends later
  it.skipIf(target.name !== 'postgres')('has a submit that committed after a run, with a time before that run\'s end, in the next run from its next_since', async () => {
    const ready = async (address: string) => {
      const session = await createConfirmedApplicant(server.app, address);
      await session.post('/api/web-status', { web_status: 'started' });
      await session.put('/api/answer', completeApplication());
      return session;
    };
    const email = 'export-late@example.org';
    const api = await ready(email);
    const sooner = await ready('export-sooner@example.org');
    const id = (await server.app.db.selectFrom('applicants').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const holder = new pg.Client({ connectionString: server.config.databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from applicants where id = $1 for update', [id]);
      const submit = api.post('/api/submit');
      await until(async () => {
        const { rows } = await holder.query<{ waiting: number }>("select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
        return rows[0]!.waiting > 0 || undefined;
      }, 'the submit waiting on the applicant\'s lock');
      // a submit that started later and committed at once: the run's last submit is later than the held one's time
      expect((await sooner.post('/api/submit')).status).toBe(200);
      const run = await readRun();
      const ended = Date.now();
      expect(run.lines.map((line) => line.email)).not.toContain(email);
      expect(run.lines.at(-1)?.email).toBe('export-sooner@example.org');
      await holder.query('commit');
      expect((await submit).status).toBe(200);
      const late = (await readRun(run.manifest.next_since)).lines.find((line) => line.email === email);
      expect(late?.first_name).toBe('Ada');
      expect(Date.parse(late!.submitted_at as string)).toBeLessThan(ended);
    } finally {
      await holder.end();
    }
  });
});
