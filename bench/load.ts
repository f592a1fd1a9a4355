/**
 * Load test of the whole server: the real server in its own process (as npm start
 * runs it), driven from this one by many simulated applicants, each with its own account,
 * session and client address, on the embedded PGlite database and on PostgreSQL.
 *
 *   npm run bench:load
 *   npm run bench:load -- --databases postgres --applicants 100,1000 --seconds 60 --ramp 10
 *   npm run bench:load -- --phases persons --server-node-args="--cpu-prof --cpu-prof-dir=/tmp/prof"
 *
 * Per database: a fresh DATA_DIR (and, for PostgreSQL, a scratch database it creates and
 * drops under TEST_DATABASE_URL or DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test),
 * the high schools imported for the look-ups, then the accounts through the API (sign-up,
 * the code from the server's mail, confirmation, login), then:
 *
 *   1. saturation (--phases saturation): saves only, as fast as they are answered, 100 in
 *      flight (autocannon), fewer while p99 is 50 ms or more, then 1,000 in flight;
 *   2. person-like (--phases persons): N applicants each acting like a person for --seconds
 *      (bench/load/person-run.ts), ending with submit; N = each of --applicants;
 *   3. the check: the server is stopped and every acknowledged save compared with the
 *      answers table (each key must hold its last acknowledged value, or a later one), every
 *      acknowledged submit must be recorded.
 *
 * Prints requests per second, p50/p95/p99 latency and errors per call type, where the CPU
 * went (server, PostgreSQL, this load generator, other work on the machine) and what the
 * server's PostgreSQL connections were doing. Exits 1 when an acknowledged answer or submit
 * is not in the database.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../src/server/db/database.ts';
import { readCsv } from '../scripts/lookups/csv-lines.ts';
import { importLookups } from '../scripts/lookups/import-lookups.ts';
import { AckLog, AnswerMaker, createApplicants, type Applicant } from './load/applicants.ts';
import { HttpClient } from './load/http-client.ts';
import { runPersons, type School } from './load/person-run.ts';
import { saturate, type SaturationResult } from './load/saturation.ts';
import { probeHealth } from './load/health-probe.ts';
import { cpuTimeline } from './load/cpu-timeline.ts';
import { samplePostgres } from './load/pg-sampler.ts';
import { reportBackgroundLoad, startServerProcess, type ServerProcess } from './load/server-process.ts';
import { formatRows, type StatRow } from './load/stats.ts';

const { values } = parseArgs({
  options: {
    databases: { type: 'string', default: 'pglite,postgres' },
    applicants: { type: 'string', default: '100,1000' },
    seconds: { type: 'string', default: '60' },
    'saturation-seconds': { type: 'string', default: '15' },
    /** the person-like runs' start: applicants arrive over this many seconds */
    ramp: { type: 'string', default: '10' },
    phases: { type: 'string', default: 'saturation,persons' },
    schools: { type: 'string', default: '../shared/data/lookups/hs_ceeb_us.csv' },
    /** NAME=value for the server, e.g. --server-env LOG_LEVEL=info */
    'server-env': { type: 'string', multiple: true, default: [] },
    /** node options for the server, e.g. --server-node-args="--cpu-prof --cpu-prof-dir=/tmp/prof" */
    'server-node-args': { type: 'string', default: '' },
  },
});
const databases = values.databases.split(',').map((name) => name.trim()) as ('pglite' | 'postgres')[];
const sizes = values.applicants.split(',').map(Number).filter((n) => n > 0).sort((a, b) => a - b);
const personSeconds = Number(values.seconds);
const saturationSeconds = Number(values['saturation-seconds']);
const rampSeconds = Number(values.ramp);
const phases = new Set(values.phases.split(','));
const schoolsFile = existsSync(values.schools) ? values.schools : 'tests/fixtures/lookups/hs_ceeb.csv';
const serverEnv = Object.fromEntries(values['server-env'].map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
const adminUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const P99_TARGET_MS = 50;

interface Summary {
  database: string;
  saturation: SaturationResult[];
  /** the same saturation on the bare anchor (bench/load/anchor-server.ts) */
  anchor: SaturationResult[];
  persons: { applicants: number; rows: StatRow[]; submitted: number; serverCpu: string }[];
  check: { acknowledgedSaves: number; checkedKeys: number; lost: string[]; overwrittenLate: string[]; submits: number; submitsMissing: number };
}

async function prepare(kind: 'pglite' | 'postgres', dataDir: string, url: string | undefined): Promise<School[]> {
  const handle = await openDatabase({ url, dataDir });
  try {
    const started = performance.now();
    const report = await importLookups(handle.db, 'hs_ceeb', readCsv(readFileSync(schoolsFile, 'utf8')));
    const rows = await handle.db.selectFrom('lookups').select(['id', 'name']).where('category', '=', 'hs_ceeb').execute();
    console.log(`  ${kind}: ${rows.length} high schools loaded from ${schoolsFile} in ${((performance.now() - started) / 1000).toFixed(1)} s (${report.rejected.length} lines rejected)`);
    return rows.map((row) => ({ name: row.name, ceeb: row.id }));
  } finally {
    await handle.close();
  }
}

/** Reads back every applicant's answers and statuses (the server is stopped first: PGlite has one user at a time). */
async function readBack(dataDir: string, url: string | undefined, emails: string[]) {
  const handle = await openDatabase({ url, dataDir });
  try {
    const answers = await handle.db.selectFrom('answers').innerJoin('applicants', 'applicants.id', 'answers.applicant_id')
      .select(['applicants.email', 'answers.key', 'answers.value']).where('applicants.email', 'in', emails).where('answers.value', 'is not', null).execute();
    const stored = new Map<string, Map<string, unknown>>();
    for (const row of answers) {
      if (!stored.has(row.email)) stored.set(row.email, new Map());
      stored.get(row.email)!.set(row.key, row.value);
    }
    const submitted = await handle.db.selectFrom('web_status_entries').innerJoin('applicants', 'applicants.id', 'web_status_entries.applicant_id')
      .select('applicants.email').where('web_status', '=', 'submitted').where('applicants.email', 'in', emails).execute();
    return { stored, submitted: new Set(submitted.map((row) => row.email)) };
  } finally {
    await handle.close();
  }
}

/**
 * Waits until the server has worked off what an earlier phase left queued (requests whose
 * client gave up are still served): GET /healthz, which asks the database, answers fast.
 */
async function settle(http: HttpClient): Promise<void> {
  const deadline = Date.now() + 60_000;
  let fast = 0;
  while (fast < 3 && Date.now() < deadline) {
    const { ms } = await http.request('GET', '/healthz', {});
    fast = ms < 20 ? fast + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function printSaturation(title: string, result: SaturationResult): void {
  const codes = Object.entries(result.statusCodes).map(([code, count]) => `${code}: ${count}`).join(', ');
  console.log(`  ${title}: ${result.savesPerSecond.toFixed(0)} saves/s, p50 ${result.p50.toFixed(1)} / p95 ${result.p95.toFixed(1)} / p99 ${result.p99.toFixed(1)} / max ${result.max.toFixed(0)} ms, errors ${result.errors} (${codes})`);
  const health = result.health;
  if (health) console.log(`    /healthz every 20 ms: answers p50 ${health.p50Ms.toFixed(0)} / p99 ${health.p99Ms.toFixed(0)} / slowest ${health.slowestMs.toFixed(0)} ms (asked ${health.slowestAtS.toFixed(1)} s in), ${health.over50Ms} over 50 ms; worst gap between answers ${health.worstGapMs.toFixed(0)} ms (the 20 ms pause included), ${health.failed} of ${health.probes} not 200`);
}

/** Saves only, as fast as they are answered: 100 in flight, fewer while p99 is 50 ms or more, then 1,000. */
async function saturationPhase(
  server: ServerProcess, http: HttpClient, url: string | undefined, applicants: Applicant[], answers: AnswerMaker, acks: AckLog,
  title = 'saturation (saves only, autocannon, one connection and session per applicant):',
): Promise<SaturationResult[]> {
  console.log(`\n  ${title}`);
  const results: SaturationResult[] = [];
  async function run(group: Applicant[]): Promise<SaturationResult> {
    await settle(http);
    const cpu = cpuTimeline(server.pid);
    const sampler = url ? samplePostgres(url) : undefined;
    acks.phase = `saturation, ${group.length} in flight`;
    const health = probeHealth(server.url);
    const result = await saturate({ url: server.url, applicants: group, answers, acks, seconds: saturationSeconds });
    result.health = await health.stop();
    printSaturation(`${group.length} in flight`, result);
    console.log(`    CPU of the ${cpus().length} cores: ${cpu.stop().whole}`);
    if (sampler) console.log(`    PostgreSQL ${await sampler.stop()}`);
    results.push(result);
    return result;
  }
  const hundred = applicants.slice(0, 100);
  acks.phase = 'warm-up';
  await saturate({ url: server.url, applicants: hundred, answers, acks, seconds: 3 });
  for (const connections of [100, 50, 25, 10]) {
    if ((await run(hundred.slice(0, connections))).p99 < P99_TARGET_MS) break;
  }
  if (applicants.length >= 1000) await run(applicants.slice(0, 1000));
  return results;
}

async function benchDatabase(kind: 'pglite' | 'postgres'): Promise<Summary> {
  console.log(`\n=== ${kind === 'pglite' ? 'embedded PGlite (a thread of the server process)' : `PostgreSQL (${new URL(adminUrl).host})`} ===`);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-load-'));
  let url: string | undefined;
  let dropDatabase = async () => {};
  if (kind === 'postgres') {
    const name = `bench_load_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const scratch = new URL(adminUrl);
    scratch.pathname = `/${name}`;
    url = scratch.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }
  let server: ServerProcess | undefined;
  try {
    const schools = await prepare(kind, dataDir, url);
    // TRUST_PROXY: each simulated applicant comes from its own address (X-Forwarded-For), as behind a load balancer
    server = await startServerProcess({ dataDir, databaseUrl: url, env: { TRUST_PROXY: '1', ...serverEnv }, nodeArgs: values['server-node-args'].split(' ').filter(Boolean) });
    const http = new HttpClient(server.url);
    const largest = sizes[sizes.length - 1] ?? 0;
    const total = largest + (sizes.length > 1 ? sizes[0]! : 0);
    const started = performance.now();
    const accounts = await createApplicants(http, server, total, kind);
    console.log(`  ${total} accounts (sign-up, confirm, login) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const small = sizes.length > 1 ? accounts.slice(0, sizes[0]) : [];
    const large = accounts.slice(small.length);
    const answers = new AnswerMaker(schools.map((school) => school.name));
    const acks = new AckLog();
    const summary: Summary = { database: kind, saturation: [], anchor: [], persons: [], check: { acknowledgedSaves: 0, checkedKeys: 0, lost: [], overwrittenLate: [], submits: 0, submitsMissing: 0 } };

    // 1. saturation
    if (phases.has('saturation')) summary.saturation = await saturationPhase(server, http, url, large, answers, acks);

    // 2. person-like
    for (const size of phases.has('persons') ? sizes : []) {
      const group = size === largest ? large.slice(0, size) : small;
      console.log(`\n  ${size} applicants acting like people for ${personSeconds} s:`);
      await settle(http);
      const sampler = url ? samplePostgres(url) : undefined;
      // the load generator must not be the bottleneck: its own event loop delay and CPU
      const loopDelay = monitorEventLoopDelay({ resolution: 10 });
      loopDelay.enable();
      const cpuShares = cpuTimeline(server.pid);
      acks.phase = `${size} applicants acting like people`;
      const result = await runPersons({ client: http, applicants: group, answers, acks, schools, durationMs: personSeconds * 1000, rampMs: rampSeconds * 1000 });
      loopDelay.disable();
      const shares = cpuShares.stop();
      const cpu = `CPU of the ${cpus().length} cores: ${shares.whole}; the load generator's event loop delay p99 ${(loopDelay.percentile(99) / 1e6).toFixed(0)} ms`;
      const connections = await sampler?.stop();
      const rows = result.stats.rows(result.seconds);
      console.log(formatRows(rows).replace(/^/gm, '    '));
      console.log(`    submitted ${result.submitted} of ${size}; ${cpu}`);
      for (const example of result.stats.examples()) console.log(`    e.g. ${example}`);
      if (connections) console.log(`    PostgreSQL ${connections}`);
      console.log(`    over time (calls by when they ended | where the CPU of the ${cpus().length} cores went):\n${result.stats.timelineText(shares.rows).replace(/^/gm, '      ')}`);
      summary.persons.push({ applicants: size, rows, submitted: result.submitted, serverCpu: cpu });
    }
    http.close();

    // 3. the check
    await server.stop();
    server = undefined;
    const { stored, submitted } = await readBack(dataDir, url, accounts.map((applicant: Applicant) => applicant.email));
    const { checked, lost, overwrittenLate } = acks.verify(stored);
    const missingSubmits = [...acks.acknowledgedSubmits].filter((email) => !submitted.has(email));
    summary.check = { acknowledgedSaves: acks.acknowledgedSaves, checkedKeys: checked, lost, overwrittenLate, submits: acks.acknowledgedSubmits.size, submitsMissing: missingSubmits.length };
    console.log(`\n  check: ${acks.acknowledgedSaves} acknowledged saves; ${checked} applicant-keys compared with the answers table: ${lost.length} lost; ` +
      `${overwrittenLate.length} overwritten by an earlier save that timed out on the client and ran late; ` +
      `${acks.acknowledgedSubmits.size} acknowledged submits, ${missingSubmits.length} not recorded`);
    for (const problem of lost.slice(0, 10)) console.log(`    lost: ${problem}`);
    for (const problem of overwrittenLate.slice(0, 3)) console.log(`    overwritten late: ${problem}`);

    // 4. the bare anchor on the same database, the same applicants and sessions (after the check: its saves are not ours to check)
    if (phases.has('saturation')) {
      server = await startServerProcess({ dataDir, databaseUrl: url, entry: 'bench/load/anchor-server.ts' });
      const anchorHttp = new HttpClient(server.url);
      summary.anchor = await saturationPhase(server, anchorHttp, url, large, answers, new AckLog(),
        'the bare anchor (Fastify, the session look-up and the same upsert, nothing else), the same saturation:');
      anchorHttp.close();
      await server.stop();
      server = undefined;
    }
    return summary;
  } finally {
    await server?.stop();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** The most saves per second of the runs with p99 under the target (at most 100 in flight). */
function bestUnderTarget(results: SaturationResult[]): SaturationResult | undefined {
  return results.filter((result) => result.connections <= 100 && result.p99 < P99_TARGET_MS).sort((a, b) => b.savesPerSecond - a.savesPerSecond)[0];
}


await reportBackgroundLoad('other work is running; figures will be lower than on a quiet machine');
const summaries: Summary[] = [];
for (const kind of databases) summaries.push(await benchDatabase(kind));

console.log('\n=== summary (person-like: answer save p99 target under 50 ms, no errors; saturation: 100 in flight) ===');
for (const summary of summaries) {
  for (const run of summary.persons) {
    const save = run.rows.find((row) => row.type === 'save');
    const all = run.rows.find((row) => row.type === 'all')!;
    console.log(`  ${summary.database}, ${run.applicants} applicants: ${all.perSecond.toFixed(0)} req/s, save p50/p95/p99 ${save?.p50.toFixed(1)}/${save?.p95.toFixed(1)}/${save?.p99.toFixed(1)} ms, errors ${all.errors}`);
  }
  const best = bestUnderTarget(summary.saturation);
  const at100 = summary.saturation.find((result) => result.connections === 100);
  if (at100) console.log(`  ${summary.database}, 100 in flight: ${at100.savesPerSecond.toFixed(0)} saves/s at p99 ${at100.p99.toFixed(1)} ms` +
    (best ? `; under ${P99_TARGET_MS} ms p99: ${best.savesPerSecond.toFixed(0)} saves/s (${best.connections} in flight)` : `; p99 under ${P99_TARGET_MS} ms not reached`));
  const anchor = bestUnderTarget(summary.anchor);
  if (anchor) console.log(`  ${summary.database}, the bare anchor under ${P99_TARGET_MS} ms p99: ${anchor.savesPerSecond.toFixed(0)} saves/s (${anchor.connections} in flight); ` +
    `ours ${best ? `${Math.round((best.savesPerSecond / anchor.savesPerSecond) * 100)} % of it` : 'not under the target'}`);
  const sideBySide = summary.anchor.map((bare) => [bare, summary.saturation.find((result) => result.connections === bare.connections)] as const)
    .filter(([, ours]) => ours).map(([bare, ours]) => `${bare.connections}: ${ours!.savesPerSecond.toFixed(0)} / ${bare.savesPerSecond.toFixed(0)} (${Math.round((ours!.savesPerSecond / bare.savesPerSecond) * 100)} %)`);
  if (sideBySide.length) console.log(`  ${summary.database}, saves/s ours / the bare anchor's by in flight: ${sideBySide.join('; ')}`);
  const thousand = summary.saturation.find((result) => result.connections === 1000);
  if (thousand) console.log(`  ${summary.database}, 1,000 in flight: ${thousand.savesPerSecond.toFixed(0)} saves/s, p99 ${thousand.p99.toFixed(0)} ms, ` +
    `time-outs and errors ${thousand.errors}, /healthz p99 ${thousand.health?.p99Ms.toFixed(0)} ms, slowest ${thousand.health?.slowestMs.toFixed(0)} ms, ${thousand.health?.over50Ms} of ${thousand.health?.probes} over 50 ms (worst gap ${thousand.health?.worstGapMs.toFixed(0)} ms)`);
  console.log(`  ${summary.database}: acknowledged saves ${summary.check.acknowledgedSaves}, lost ${summary.check.lost.length}, overwritten late by a timed-out save ${summary.check.overwrittenLate.length}, submits not recorded ${summary.check.submitsMissing}`);
}
const failed = summaries.some((summary) => summary.check.lost.length || summary.check.overwrittenLate.length || summary.check.submitsMissing);
process.exit(failed ? 1 : 0);
