/**
 * The export at scale: seeds N submitted applications (default 100,000, each with
 * the answers of a complete application, their labels and status history) into a scratch
 * PostgreSQL database it creates and drops, then runs `npm run export:applications` as a
 * process of its own and prints its time and peak memory (RSS, from /usr/bin/time): all of
 * them as CSV and as JSON Lines, a tenth (an incremental run) as CSV, and all as CSV again
 * with the JavaScript heap capped at 64 MB: memory does not grow with the count.
 *
 *   npm run bench:export [-- --count 100000 --admin postgres://postgres@127.0.0.1:5432/postgres]
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { storedChanges } from '../src/server/answers/answer-changes.ts';
import { openDatabase } from '../src/server/db/database.ts';
import type { Database } from '../src/server/db/tables.ts';
import { completeApplication } from '../support/fixtures/complete-application.ts';

const { values } = parseArgs({ options: {
  count: { type: 'string', default: '100000' },
  admin: { type: 'string', default: process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
} });
const count = Number(values.count);
const NAME = 'export_bench';
const ROOT = resolve(import.meta.dirname, '..');

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: values.admin });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const url = new URL(values.admin);
url.pathname = `/${NAME}`;
await admin(`drop database if exists ${NAME} with (force)`);
await admin(`create database ${NAME}`);
const out = mkdtempSync(join(tmpdir(), 'bench-export-'));
try {
  // the tables (migrations) as the server makes them; the seeding's statements run longer than the server's timeout allows
  await (await openDatabase({ url: url.toString(), dataDir: out })).close();
  const database = { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 1 }) }) }) };
  const seedStarted = performance.now();
  // the answers one real save of a complete application stores (with its labels), for everyone
  const { values: answers } = storedChanges({ ...completeApplication(), _clock: {} });
  const rows = Object.entries({ ...answers, entry_term: '202608', entry_term_desc: 'Fall 2026' });
  await sql`insert into applicants (email, password_hash, confirmed_at, created_at)
    select 'bench' || n || '@example.org', 'not-a-hash', now(), now() - interval '30 days' from generate_series(1, ${count}) n`.execute(database.db);
  // started over 20 days up to yesterday (at 100,000, one about every 17 s), submitted an hour later
  await sql`insert into web_status_entries (applicant_id, web_status, created_at)
    select a.id, s.status, now() - interval '21 days' + interval '20 days' * a.rank / ${count} + s.after
    from (select id, row_number() over (order by id) as rank from applicants) a
    cross join (values ('started', interval '0'), ('validating', interval '1 hour'), ('submitted', interval '1 hour 1 minute')) s(status, after)`.execute(database.db);
  await sql`insert into answers (applicant_id, key, value, schema_version, updated_at, changed_at)
    select a.id, v.key, v.value::jsonb, 1, now() - interval '21 days', 0 from applicants a
    cross join jsonb_each_text(${JSON.stringify(Object.fromEntries(rows.map(([key, value]) => [key, JSON.stringify(value)])))}::jsonb) v(key, value)`.execute(database.db);
  await sql`analyze`.execute(database.db);
  const submitTimes = await sql<{ tenth: string }>`select to_char(percentile_disc(0.9) within group (order by created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as tenth
    from web_status_entries where web_status = 'submitted'`.execute(database.db);
  const size = await sql<{ rows: string }>`select count(*)::text as rows from answers`.execute(database.db);
  await database.db.destroy();
  console.log(`seeded ${count.toLocaleString('en-US')} submitted applications (${Number(size.rows[0]!.rows).toLocaleString('en-US')} answer rows) in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);

  const run = async (label: string, args: string[], nodeArgs: string[] = []) => {
    const target = join(out, label.replace(/\W+/g, '-'));
    const started = performance.now();
    const { stderr, stdout } = await promisify(execFile)('/usr/bin/time', ['-f', 'peak-rss-kb %M', process.execPath, ...nodeArgs, '--enable-source-maps', 'dist/server/export-applications.js', '--out', target, ...args], {
      cwd: ROOT, env: { ...process.env, DATABASE_URL: url.toString() }, maxBuffer: 1 << 20,
    });
    const seconds = (performance.now() - started) / 1000;
    const peak = Number(/peak-rss-kb (\d+)/.exec(stderr)![1]) / 1024;
    const file = /in (\S+) \(/.exec(stdout)![1]!;
    const rowsOut = Number(/^(\d+) applications/.exec(stdout)![1]);
    console.log(`| ${label} | ${rowsOut.toLocaleString('en-US')} | ${(statSync(file).size / 1e6).toFixed(0)} MB | ${seconds.toFixed(1)} s | ${peak.toFixed(0)} MB |`);
  };
  console.log('| export | rows | file | time (process, start to end) | peak RSS |');
  console.log('|---|---|---|---|---|');
  await run('incremental: the last tenth, CSV', ['--since', submitTimes.rows[0]!.tenth, '--format', 'csv']);
  await run('all, CSV', ['--format', 'csv']);
  await run('all, JSON Lines', ['--format', 'jsonl']);
  // flat by construction: the whole export fits a JavaScript heap far smaller than its file
  await run('all, CSV, heap capped at 64 MB', ['--format', 'csv'], ['--max-old-space-size=64']);
} finally {
  rmSync(out, { recursive: true, force: true });
  await admin(`drop database if exists ${NAME} with (force)`);
}
