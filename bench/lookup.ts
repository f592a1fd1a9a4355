/**
 * Times GET /lookup/find's search (findSuggestions: the SQL and the ranking) on the shared
 * look-up data: embedded PGlite always, and PostgreSQL when TEST_DATABASE_URL or
 * DATABASE_URL is set. On PostgreSQL it loads into a scratch database it creates and drops,
 * never into the named one.
 *
 *   npm run bench:lookup [-- --data ../shared/data/lookups --rounds 3]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/server/db/database.ts';
import { countLookups } from '../src/server/db/repositories/lookup-repository.ts';
import type { LookupCategory } from '../src/server/lookups/categories.ts';
import { readCsv } from '../scripts/lookups/csv-lines.ts';
import { findSuggestions } from '../src/server/lookups/find-lookups.ts';
import { importLookups } from '../scripts/lookups/import-lookups.ts';
import { zipcodeLines } from '../scripts/lookups/zipcode-lines.ts';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../shared/data/lookups' }, rounds: { type: 'string', default: '3' } } });
const dataDir = values.data;
const rounds = Math.max(1, Number(values.rounds) || 3);

interface Query {
  kind: string;
  category: LookupCategory;
  text: string;
}

/** What applicants type: a name letter by letter, from its first or a later word, with or without "high school". */
function realisticQueries(): Query[] {
  const names = readCsv(readFileSync(join(dataDir, 'hs_ceeb_us.csv'), 'utf8')).lines
    .flatMap((line) => ('fields' in line ? [line.fields.name!] : []));
  const random = seeded(42);
  const pick = () => names[Math.floor(random() * names.length)]!.toLowerCase();
  const queries: Query[] = [];
  const add = (kind: string, text: string, category: LookupCategory = 'hs_ceeb') => queries.push({ kind, category, text });
  for (let i = 0; i < 40; i++) {
    const name = pick();
    for (const length of [1, 2, 3, 5, 8, 12]) add('typing a name (1-12 letters)', name.slice(0, length));
    const words = name.split(' ');
    if (words.length > 2) add('a later word first', words.slice(1, 3).join(' ').slice(0, 9));
    add('name without "high school"', name.replace(/\b(high school|hs|high|school)\b/g, '').trim());
    add('full name', name);
  }
  for (const text of ['high', 'school', 'high school', 'christian academy', 'central high school', 'st', 'saint', 'st marys', 'lincoln hs', 'washington senior high']) {
    add('common words', text);
  }
  for (const text of ['univ', 'state univ', 'community college', 'university of', 'texas a', 'harvard', 'mit', 'ohio state', 'calif']) {
    add('colleges', text, 'college_ceeb');
  }
  for (const text of ['0', '02', '021', '0213', '02138', '9', '94', '941', '9410', '94103']) add('ZIP digits', text, 'address');
  for (const text of ['s', 'sa', 'salt', 'salt lake', 'new y', 'springfield', 'san', 'port']) add('city', text, 'address');
  return queries;
}

async function load(handle: DatabaseHandle): Promise<void> {
  if ((await countLookups(handle.db, 'hs_ceeb')) > 0) return;
  const started = performance.now();
  await importLookups(handle.db, 'hs_ceeb', readCsv(readFileSync(join(dataDir, 'hs_ceeb_us.csv'), 'utf8')));
  await importLookups(handle.db, 'college_ceeb', readCsv(readFileSync(join(dataDir, 'college_ceeb_us.csv'), 'utf8')));
  await importLookups(handle.db, 'address', zipcodeLines());
  console.log(`  loaded the shared data in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function bench(name: string, handle: DatabaseHandle): Promise<void> {
  console.log(`\n${name}`);
  await load(handle);
  const queries = realisticQueries();
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
  console.log(`  ${'query kind'.padEnd(30)} ${'n'.padStart(5)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'max ms'.padStart(8)}`);
  for (const [kind, list] of times) {
    const sorted = [...list].sort((a, b) => a - b);
    const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!.toFixed(1).padStart(8);
    console.log(`  ${kind.padEnd(30)} ${String(sorted.length).padStart(5)} ${at(0.5)} ${at(0.95)} ${sorted.at(-1)!.toFixed(1).padStart(8)}`);
  }
  console.log(`  slowest: ${slowest.query} ${slowest.ms.toFixed(1)} ms`);
}

/** mulberry32: the same "random" names on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// on disk, as `npm start` runs it
const pgliteDir = mkdtempSync(join(tmpdir(), 'bench-lookup-'));
const pglite = await openDatabase({ dataDir: pgliteDir });
try {
  await bench(`PGlite (embedded, in ${pgliteDir})`, pglite);
} finally {
  await pglite.close();
  rmSync(pgliteDir, { recursive: true, force: true });
}

const postgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
if (postgresUrl) {
  const scratch = `bench_lookup_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${scratch}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${scratch}`;
  try {
    const postgres = await openDatabase({ url: url.toString(), dataDir: '' });
    try {
      await bench(`PostgreSQL (${url.host}, scratch database ${scratch})`, postgres);
    } finally {
      await postgres.close();
    }
  } finally {
    await admin.query(`drop database if exists ${scratch} with (force)`);
    await admin.end();
  }
} else {
  console.log('\nPostgreSQL: set TEST_DATABASE_URL or DATABASE_URL to time it too.');
}
