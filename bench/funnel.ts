/**
 * The funnel report at scale: seeds N applicants (default 100,000) with a realistic spread
 * of progress into a scratch PostgreSQL database it creates and drops, then runs `npm run
 * report:funnel` as a process of its own and prints its time and peak memory (RSS, from
 * /usr/bin/time): the HTML page, the JSON, the page with every stopped applicant named, and
 * the page again with the JavaScript heap capped at 64 MB: memory does not follow the count.
 *
 * The spread, by each applicant's place in 100: 90 started (over the cycle's first 18
 * weeks), all of them reached About You, 70 Your Education, 50 Final Step, 40 were asked to
 * submit, 30 submitted; a third of those asked and not submitted were last shown messages on
 * one to three of six questions; half of those who did not submit got a reminder.
 *
 *   npm run bench:funnel [-- --count 100000 --admin postgres://postgres@127.0.0.1:5432/postgres]
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../src/server/db/database.ts';
import type { Database } from '../src/server/db/tables.ts';

const { values } = parseArgs({ options: {
  count: { type: 'string', default: '100000' },
  admin: { type: 'string', default: process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
} });
const count = Number(values.count);
const NAME = 'funnel_bench';
const ROOT = resolve(import.meta.dirname, '..');
const KEYS = ['first_name', 'last_name', 'gender', 'birth_date', 'phone_home', 'country', 'address_line_1', 'city', 'state', 'zip', 'hs_name', 'hs_gpa', 'grad_year', 'applied_major', 'legal_agree'];

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
const out = mkdtempSync(join(tmpdir(), 'bench-funnel-'));
try {
  await (await openDatabase({ url: url.toString(), dataDir: out })).close();
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  // the scratch database is dropped at the end, its idle connection with it: no crash for that
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const seedStarted = performance.now();
  // p: the applicant's place in 100 (a fixed scramble of its number); t: when it started
  await sql`create temporary table plan as
    select n, (n::bigint * 7919) % 100 as p, timestamptz '2026-08-03 15:00Z' + interval '18 weeks' * ((n::bigint * 104729) % ${count})::float / ${count} as t
    from generate_series(1, ${count}) n`.execute(db);
  await sql`insert into applicants (email, password_hash, confirmed_at, created_at, last_page, submitted_at)
    select 'bench' || n || '@example.org', 'not-a-hash', t, t,
      case when p < 50 then '/final-steps' when p < 70 then '/education-ug' when p < 90 then '/about' end,
      case when p < 30 then t + interval '2 days' end
    from plan`.execute(db);
  await sql`create temporary table who as select a.id, p.p, p.t from applicants a join plan p on a.email = 'bench' || p.n || '@example.org'`.execute(db);
  await sql`insert into web_status_entries (applicant_id, web_status, created_at)
    select id, s.status, t + s.after from who cross join (values ('started', interval '0', 90), ('validating', interval '1 day', 40), ('submitted', interval '2 days', 30)) s(status, after, below)
    where p < s.below`.execute(db);
  await sql`insert into pages_reached (applicant_id, page, reached_at)
    select id, s.page, t + s.after from who cross join (values ('/about', interval '0', 90), ('/education-ug', interval '3 hours', 70), ('/final-steps', interval '6 hours', 50)) s(page, after, below)
    where p < s.below`.execute(db);
  await sql`insert into answers (applicant_id, key, value, schema_version, updated_at, changed_at)
    select id, k.key, to_jsonb('x'::text), 1, t + interval '1 hour' * k.n, 0 from who cross join unnest(${KEYS}::text[]) with ordinality k(key, n)
    where p < 90`.execute(db);
  await sql`insert into logins (applicant_id, login_at) select id, t from who where p < 90`.execute(db);
  await sql`insert into validation_snapshots (applicant_id, errors, updated_at)
    select id, jsonb_object_agg(k, jsonb_build_array('is required')), t + interval '1 day'
    from who cross join lateral (select (array['hs_gpa', 'birth_date', 'phone_home', 'zip', 'applied_major', 'legal_agree'])[1 + (p + i) % 6] as k from generate_series(0, p % 3) i) keys
    where p >= 30 and p < 40 group by id, t`.execute(db);
  await sql`insert into reminders (applicant_id, rule_id, deadline_id, status, due_at, queued_at, sent_at)
    select id, 'week-before', 'deadline-jan', 'sent', timestamptz '2027-01-08 15:30Z', timestamptz '2027-01-08 15:30Z', timestamptz '2027-01-08 15:31Z'
    from who where p >= 30 and p < 90 and p % 2 = 0`.execute(db);
  await sql`analyze`.execute(db);
  const size = await sql<{ answers: string; applicants: string }>`select (select count(*) from answers)::text as answers, (select count(*) from applicants)::text as applicants`.execute(db);
  await db.destroy();
  console.log(`seeded ${Number(size.rows[0]!.applicants).toLocaleString('en-US')} applicants (${Number(size.rows[0]!.answers).toLocaleString('en-US')} answer rows) in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);

  const run = async (label: string, args: string[], nodeArgs: string[] = []) => {
    const target = join(out, `${label.replace(/\W+/g, '-')}.out`);
    const started = performance.now();
    const { stderr } = await promisify(execFile)('/usr/bin/time', ['-f', 'peak-rss-kb %M', process.execPath, ...nodeArgs, '--enable-source-maps', 'dist/server/report-funnel.js', '--out', target, '--at', '2027-02-01T12:00:00Z', ...args], {
      cwd: ROOT, env: { ...process.env, DATABASE_URL: url.toString(), LOG_LEVEL: 'warn' }, maxBuffer: 1 << 20,
    });
    const seconds = (performance.now() - started) / 1000;
    const peak = Number(/peak-rss-kb (\d+)/.exec(stderr)![1]) / 1024;
    console.log(`| ${label} | ${(statSync(target).size / 1e3).toFixed(0)} kB | ${seconds.toFixed(1)} s | ${peak.toFixed(0)} MB |`);
  };
  console.log('| report | file | time (process, start to end) | peak RSS |');
  console.log('|---|---|---|---|');
  await run('HTML', []);
  await run('JSON', ['--format', 'json']);
  await run('HTML with every stopped applicant named', ['--with-names']);
  await run('HTML with names, heap capped at 64 MB', ['--with-names'], ['--max-old-space-size=64']);
} finally {
  rmSync(out, { recursive: true, force: true });
  await admin(`drop database if exists ${NAME} with (force)`);
}
