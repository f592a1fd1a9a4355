/**
 * npm run schema:impact: each kind of schema change is named in staff's words, counted
 * against the applications whose saved answers it orphans or invalidates (in progress
 * and submitted apart, with their ids), and a change that can do so without a page
 * version bump exits 1 so CI stops it. The applications are made through the real
 * server; the report reads the database the server used.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database.ts';
import { schemasAt } from '../../scripts/schema-impact/form-at.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { confirmedApplicantOverHttp, startProcessServer, type ProcessServer } from '../helpers/process-server.ts';
import { databaseTargets } from '../../support/test-databases.ts';

const root = resolve(import.meta.dirname, '..', '..');
// each case builds two forms and reads the database in a child process: minutes on a busy machine
const CASE_MS = 300_000;
type Json = Record<string, any>;

interface Report {
  changes: {
    kind: string; page: string; key?: string; from?: string; codes?: string[]; breaking: boolean; detail: string;
    affected?: { inProgress: number; submitted: number; examples: string[] };
    stops_at_submit?: { inProgress: number; examples: string[] };
  }[];
  applications: { inProgress: number; submitted: number } | null;
  unbumped_pages: { page: string; version: number }[];
  file_item_changes: { kind: string; id: string; breaking: boolean; detail: string; submitted_files?: { nowRequired: number; noLongerRequired: number; examples: string[] } }[];
}

describe.each(databaseTargets())('schema:impact on $name', (target) => {
  let server: ProcessServer;
  let drop: () => Promise<void> = async () => {};
  let databaseUrl: string | undefined;
  const ids: Record<'inProgress' | 'submitted', string> = { inProgress: '', submitted: '' };
  const base = schemasAt('HEAD', root);
  let counter = 0;

  /** HEAD's schemas, changed by `edit`, as staff would have them in their working copy. */
  function edited(edit: (dir: string) => void): string {
    const dir = join(base.dir, '..', `edited-${++counter}`);
    cpSync(base.dir, dir, { recursive: true });
    edit(dir);
    return dir;
  }

  function editJson(dir: string, file: string, change: (json: Json) => void): void {
    const path = join(dir, file);
    const json = JSON.parse(readFileSync(path, 'utf8')) as Json;
    change(json);
    writeFileSync(path, JSON.stringify(json, null, 2));
  }

  function impact(schemasDir: string): { status: number | null; report: Report; stderr: string } {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/schema-impact.ts', 'HEAD', '--format', 'json'], {
      cwd: root,
      env: { ...process.env, SCHEMAS_DIR: schemasDir, DATA_DIR: server.dataDir, DATABASE_URL: databaseUrl ?? '' },
      encoding: 'utf8',
    });
    if (run.status === 2 || !run.stdout.trim()) throw new Error(`schema:impact failed (${run.status}):\n${run.stderr}`);
    return { status: run.status, report: JSON.parse(run.stdout) as Report, stderr: run.stderr };
  }

  const change = (report: Report, kind: string, key: string) => {
    const found = report.changes.find((item) => item.kind === kind && item.key === key);
    expect(found, `${kind} ${key} in ${JSON.stringify(report.changes, null, 1)}`).toBeDefined();
    return found!;
  };

  /** Every kind of breaking change on About You at once. */
  const breakingEdits = (dir: string) => {
    editJson(dir, 'pages/about.schema.json', (page) => {
      const personal = page.properties.personal;
      personal.properties.first_name.maxLength = 20;
      delete personal.properties.middle_name;
      personal.properties.maiden_name = personal.properties.maid_name;
      delete personal.properties.maid_name;
      personal.properties.birth_date['x-date-max'] = { years_ago: 16 };
    });
    editJson(dir, 'pages/about.ui.json', (ui) => {
      const order: string[] | undefined = ui.personal['ui:order'];
      if (order) ui.personal['ui:order'] = order.filter((name) => name !== 'middle_name').map((name) => (name === 'maid_name' ? 'maiden_name' : name));
      if (ui.personal.maid_name) ui.personal.maiden_name = ui.personal.maid_name;
      delete ui.personal.maid_name;
      delete ui.personal.middle_name;
    });
    editJson(dir, 'data-model.json', (model) => {
      delete model.keys.middle_name;
      model.keys.maiden_name = model.keys.maid_name;
      delete model.keys.maid_name;
    });
    editJson(dir, 'options/gender.json', (list) => {
      list.oneOf = list.oneOf.filter((option: Json) => option.const !== 'X');
    });
  };

  beforeAll(async () => {
    const created = await target.create();
    databaseUrl = created.url;
    drop = created.drop;
    server = await startProcessServer({ databaseUrl, readyTimeoutMs: 180_000 });
    const year = Number(completeApplication().birth_date!.toString().slice(0, 4)) + 18;

    const inProgress = await confirmedApplicantOverHttp(server, `impact-progress-${target.name}@example.org`);
    expect((await inProgress.put('/api/answer', {
      first_name: 'Bartholomew-Alexander', middle_name: 'Quincy', maid_name: 'Older', gender: 'X', birth_date: `${year - 14}-03-01`, last_name: 'Smythe',
    })).status).toBe(200);

    const submitted = await confirmedApplicantOverHttp(server, `impact-submitted-${target.name}@example.org`);
    expect((await submitted.put('/api/answer', completeApplication())).status).toBe(200);
    expect((await submitted.post('/api/submit')).status).toBe(200);
    await server.stop(); // the embedded database is read once the server has let it go

    const database = await openDatabase({ url: databaseUrl, dataDir: server.dataDir });
    try {
      const rows = await database.db.selectFrom('applicants').select(['id', 'email']).execute();
      ids.inProgress = rows.find((row) => row.email.startsWith('impact-progress'))!.id;
      ids.submitted = rows.find((row) => row.email.startsWith('impact-submitted'))!.id;
    } finally {
      await database.close();
    }
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    await drop();
    base.remove();
  });

  it('names each breaking change, counts the applications it touches and exits 1 without a version bump', () => {
    const dir = edited((schemas) => {
      breakingEdits(schemas);
      editJson(schemas, 'definitions/address.schema.json', (address) => {
        address.required = [...(address.required ?? []), 'address_line_2'];
      });
    });
    const { status, report, stderr } = impact(dir);
    expect(status).toBe(1);
    expect(stderr).toMatch(/page "about" has changes that can orphan or invalidate saved answers, but its "version" is still 1\. Raise "version" to 2 in schemas\/pages\/about\.schema\.json/);
    expect(report.unbumped_pages).toEqual([{ page: 'about', version: 1, file: 'schemas/pages/about.schema.json' }]);
    expect(report.applications).toEqual({ inProgress: 1, submitted: 1 });

    const onlyInProgress = { inProgress: 1, submitted: 0, examples: [ids.inProgress] };
    expect(change(report, 'rule tightened', 'first_name')).toMatchObject({ breaking: true, affected: onlyInProgress });
    expect(change(report, 'question removed', 'middle_name')).toMatchObject({ breaking: true, affected: onlyInProgress });
    expect(change(report, 'question renamed', 'maiden_name')).toMatchObject({ from: 'maid_name', breaking: true, affected: onlyInProgress });
    expect(change(report, 'option removed', 'gender')).toMatchObject({ codes: ['X'], breaking: true, affected: onlyInProgress });
    expect(change(report, 'rule changed', 'birth_date')).toMatchObject({ breaking: true, affected: onlyInProgress });
    // a newly required answer that a submitted application lacks counts against it; one in progress is simply unfinished
    expect(change(report, 'rule tightened', 'address_line_2')).toMatchObject({ breaking: true, affected: { inProgress: 0, submitted: 1, examples: [ids.submitted] } });
  }, CASE_MS);

  it('exits 0 once the page version is raised, and still names the changes and counts', () => {
    const dir = edited((schemas) => {
      breakingEdits(schemas);
      editJson(schemas, 'pages/about.schema.json', (page) => { page.version = 2; });
    });
    const { status, report } = impact(dir);
    expect(status).toBe(0);
    expect(report.unbumped_pages).toEqual([]);
    expect(change(report, 'option removed', 'gender').affected).toMatchObject({ inProgress: 1 });
    expect(report.changes.find((item) => item.kind === 'page version changed')).toMatchObject({ page: 'about' });
  }, CASE_MS);

  it('labels, messages, added questions and options are not breaking and need no bump', () => {
    const dir = edited((schemas) => {
      editJson(schemas, 'pages/about.schema.json', (page) => {
        page.properties.personal.properties.first_name.title = 'First Name (as on your passport)';
        page.properties.personal.properties.birth_date.errorMessage['x-date-max'] = 'Applicants must be at least 13 years old.';
      });
      editJson(schemas, 'options/gender.json', (list) => { list.oneOf.push({ const: 'U', title: 'Prefer not to say' }); });
    });
    const { status, report } = impact(dir);
    expect(status).toBe(0);
    expect(change(report, 'label changed', 'first_name')).toMatchObject({ breaking: false });
    expect(change(report, 'message changed', 'birth_date')).toMatchObject({ breaking: false });
    expect(change(report, 'option added', 'gender')).toMatchObject({ codes: ['U'], breaking: false });
    expect(report.changes.every((item) => !item.breaking)).toBe(true);
  }, CASE_MS);

  it('counts the applications in progress a new required question will stop at Submit', () => {
    const dir = edited((schemas) => {
      editJson(schemas, 'data-model.json', (model) => {
        model.keys.has_former_name = { type: 'code' };
        model.keys.former_name_x = { type: 'string' };
      });
      editJson(schemas, 'pages/about.schema.json', (page) => {
        const personal = page.properties.personal;
        personal.properties.has_former_name = { title: 'Have you used another last name?', $ref: '../options/yes-no.json' };
        personal.required.push('has_former_name');
        // required only of those who chose "Another gender (X)": the one in progress did
        personal.properties.former_name_x = { title: 'Name used before', type: 'string' };
        personal.allOf = [...(personal.allOf ?? []), { if: { when: { key: 'gender', op: 'equals', value: 'X' } }, then: { required: ['former_name_x'] } }];
      });
    });
    const { status, report } = impact(dir);
    expect(status).toBe(0);
    const added = change(report, 'question added', 'has_former_name');
    expect(added).toMatchObject({ breaking: false, detail: expect.stringContaining('added (required)') });
    // the submitted application is not stopped again; the one in progress is, until it answers
    expect(added.stops_at_submit).toEqual({ inProgress: 1, examples: [ids.inProgress] });
    expect(added.affected).toMatchObject({ inProgress: 0, submitted: 0 });
    expect(change(report, 'question added', 'former_name_x')).toMatchObject({
      detail: expect.stringContaining('(required under a rule)'), stops_at_submit: { inProgress: 1, examples: [ids.inProgress] },
    });
  }, CASE_MS);

  it('beside a running server, reads the saved answers through its admin channel', async () => {
    // the embedded database is the server's alone while it runs: the command asks the server
    await server.start();
    const { status, report } = impact(edited(breakingEdits));
    expect(status).toBe(1);
    expect(report.applications).toEqual({ inProgress: 1, submitted: 1 });
    expect(change(report, 'option removed', 'gender')).toMatchObject({ affected: { inProgress: 1, submitted: 0, examples: [ids.inProgress] } });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, CASE_MS);

  it('names an application file item removed as breaking, and counts the submitted files a requirement change reaches', () => {
    const { status, report } = impact(edited((schemas) => {
      editJson(schemas, 'file-items.json', (file) => {
        file.items = file.items.filter((item: Json) => item.id !== 'test-scores');
        file.items.find((item: Json) => item.id === 'counselor-recommendation').required = true;
      });
      editJson(schemas, 'i18n/es/file-items.json', (file) => {
        file.items = file.items.filter((item: Json) => item.id !== 'test-scores');
      });
    }));
    // no saved answer is touched: no page version to raise
    expect(status).toBe(0);
    expect(report.file_item_changes).toEqual([
      expect.objectContaining({ kind: 'item removed', id: 'test-scores', breaking: true }),
      // only a submitted application has a file
      expect.objectContaining({ kind: 'item requirement changed', id: 'counselor-recommendation', submitted_files: { nowRequired: 1, noLongerRequired: 0, examples: [ids.submitted] } }),
    ]);
  }, CASE_MS);

  it('no change: an empty list and exit 0', () => {
    const { status, report } = impact(edited(() => {}));
    expect(status).toBe(0);
    expect(report.changes).toEqual([]);
  }, CASE_MS);
});
