/**
 * Times GET /lookup/find on the shared look-up data (89,912 entries, 44,088 high schools):
 *   1. in the database: the search alone (findSuggestions: the SQL and the ranking), and under
 *      it the floor, its statement alone as the database plans and runs it (EXPLAIN ANALYZE);
 *   2. over HTTP: the real server in its own process on the same data, an applicant's
 *      session, each typed text sent as the school search sends it, with where the time
 *      goes (bench/lookup/http-path.ts); and the first look-ups a started server answers.
 * On embedded PGlite always, and on PostgreSQL when --database-url, TEST_DATABASE_URL or
 * DATABASE_URL is given: there it loads into a scratch database it creates and drops,
 * never into the named one.
 *
 *   npm run bench:lookup [-- --data ../shared/data/lookups --rounds 5 --http-rounds 3 --paths database,http]
 *   npm run bench:lookup -- --database-url postgres://postgres@127.0.0.1:5432/test
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/server/db/database.ts';
import { countLookups } from '../src/server/db/repositories/lookup-repository.ts';
import { readCsv } from '../scripts/lookups/csv-lines.ts';
import { findSuggestions } from '../src/server/lookups/find-lookups.ts';
import { importLookups } from '../scripts/lookups/import-lookups.ts';
import { zipcodeLines } from '../scripts/lookups/zipcode-lines.ts';
import { percentile } from './load/stats.ts';
import { reportBackgroundLoad } from './load/server-process.ts';
import { benchHttp } from './lookup/http-path.ts';
import { realisticQueries, type Query } from './lookup/queries.ts';
import { printStatementFloor } from './lookup/statement-floor.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '../shared/data/lookups' },
    rounds: { type: 'string', default: '5' },
    'http-rounds': { type: 'string', default: '3' },
    paths: { type: 'string', default: 'database,http' },
    databases: { type: 'string', default: 'pglite,postgres' },
    'database-url': { type: 'string' },
  },
});
const dataDir = values.data;
const rounds = Math.max(1, Number(values.rounds) || 5);
const httpRounds = Math.max(1, Number(values['http-rounds']) || 3);
const paths = new Set(values.paths.split(',').map((path) => path.trim()));
const databases = new Set(values.databases.split(',').map((name) => name.trim()));
const postgresUrl = values['database-url'] || process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;

/** Loads the three lists as `npm run import:lookups` does (prepared, checked, written in one transaction each). */
async function load(handle: DatabaseHandle): Promise<void> {
  if ((await countLookups(handle.db, 'hs_ceeb')) > 0) return;
  const started = performance.now();
  await importLookups(handle.db, 'hs_ceeb', readCsv(readFileSync(join(dataDir, 'hs_ceeb_us.csv'), 'utf8')));
  await importLookups(handle.db, 'college_ceeb', readCsv(readFileSync(join(dataDir, 'college_ceeb_us.csv'), 'utf8')));
  await importLookups(handle.db, 'address', zipcodeLines());
  console.log(`  loaded the shared data (${await countLookups(handle.db, 'hs_ceeb')} high schools) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function benchDatabase(handle: DatabaseHandle, queries: Query[]): Promise<void> {
  console.log(`  in the database (findSuggestions, no HTTP), ${rounds} rounds:`);
  for (const query of queries.slice(0, 20)) await findSuggestions(handle.db, query.category, query.text, 5); // warm up
  const times = new Map<string, number[]>();
  const slowest = { ms: 0, query: '' };
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const started = performance.now();
      await findSuggestions(handle.db, query.category, query.text, 5);
      const ms = performance.now() - started;
      for (const kind of [query.kind, 'all queries']) times.set(kind, [...(times.get(kind) ?? []), ms]);
      if (ms > slowest.ms) Object.assign(slowest, { ms, query: `${query.category} "${query.text}"` });
    }
  }
  const at = (sorted: number[], p: number) => percentile(sorted, p).toFixed(1).padStart(8);
  console.log(`    ${'query kind'.padEnd(30)} ${'n'.padStart(5)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}`);
  for (const [kind, list] of times) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(`    ${kind.padEnd(30)} ${String(sorted.length).padStart(5)} ${at(sorted, 50)} ${at(sorted, 95)} ${at(sorted, 99)} ${sorted.at(-1)!.toFixed(1).padStart(8)}`);
  }
  console.log(`    slowest: ${slowest.query} ${slowest.ms.toFixed(1)} ms`);
}

/** Loads and times the search in the database (in this process), then closes it for the server process to open. */
async function loadAndTimeInDatabase(open: () => Promise<DatabaseHandle>, queries: Query[]): Promise<void> {
  const handle = await open();
  try {
    await load(handle);
    if (paths.has('database')) {
      await benchDatabase(handle, queries);
      await printStatementFloor(handle.db, queries);
    }
  } finally {
    await handle.close();
  }
}


const queries = realisticQueries(dataDir);
console.log(`${queries.length} typed texts (${queries.filter((query) => query.category === 'hs_ceeb').length} school searches)`);
await reportBackgroundLoad('other work is running');

if (databases.has('pglite')) {
  // on disk, as `npm start` runs it
  const pgliteDir = mkdtempSync(join(tmpdir(), 'bench-lookup-'));
  console.log(`\nPGlite (embedded, in ${pgliteDir})`);
  try {
    await loadAndTimeInDatabase(() => openDatabase({ dataDir: pgliteDir }), queries);
    if (paths.has('http')) await benchHttp({ dataDir: pgliteDir, queries, rounds: httpRounds });
  } finally {
    rmSync(pgliteDir, { recursive: true, force: true, maxRetries: 5 });
  }
}

if (databases.has('postgres') && postgresUrl) {
  const scratch = `bench_lookup_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${scratch}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${scratch}`;
  // the server process keeps its own DATA_DIR (uploads, keys) even on PostgreSQL
  const serverDir = mkdtempSync(join(tmpdir(), 'bench-lookup-'));
  console.log(`\nPostgreSQL (${url.host}, scratch database ${scratch})`);
  try {
    await loadAndTimeInDatabase(() => openDatabase({ url: url.toString(), dataDir: '' }), queries);
    if (paths.has('http')) await benchHttp({ dataDir: serverDir, databaseUrl: url.toString(), queries, rounds: httpRounds });
  } finally {
    await admin.query(`drop database if exists ${scratch} with (force)`);
    await admin.end();
    rmSync(serverDir, { recursive: true, force: true, maxRetries: 5 });
  }
} else if (databases.has('postgres')) {
  console.log('\nPostgreSQL: give --database-url, or set TEST_DATABASE_URL or DATABASE_URL, to time it too.');
}
