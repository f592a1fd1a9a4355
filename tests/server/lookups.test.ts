import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countLookups } from '../../src/server/db/repositories/lookup-repository.ts';
import { readCsv } from '../../scripts/lookups/csv-lines.ts';
import { importLookups } from '../../scripts/lookups/import-lookups.ts';
import type { LookupCategory } from '../../src/server/lookups/categories.ts';
import { findSuggestions } from '../../src/server/lookups/find-lookups.ts';
import { seedEmbeddedDatabase } from '../../support/pglite-template.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { builtCommand } from '../helpers/built-server.ts';

const fixture = (name: string) => readCsv(readFileSync(join(import.meta.dirname, '../fixtures/lookups', name), 'utf8'));

interface Item {
  text: string;
  id: string;
  sub_text: string;
}

describe.each(databaseTargets())('look-ups on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServerOn(target, { listen: false });
    await importLookups(server.app.db, 'hs_ceeb', fixture('hs_ceeb.csv'));
    await importLookups(server.app.db, 'college_ceeb', fixture('college_ceeb.csv'));
    await importLookups(server.app.db, 'address', fixture('address.csv'));
  });
  afterAll(async () => {
    await server?.close();
  });

  async function find(query: Record<string, string>) {
    const response = await server.app.inject({ method: 'GET', url: '/lookup/find', query });
    return { status: response.statusCode, body: response.json(), type: response.headers['content-type'] };
  }
  async function suggest(text: string, category: LookupCategory = 'hs_ceeb', extra: Record<string, string> = {}): Promise<Item[]> {
    const { status, body } = await find({ text, category, ...extra });
    expect(status).toBe(200);
    return body as Item[];
  }
  const ids = async (text: string, category?: LookupCategory) => (await suggest(text, category)).map((item) => item.id);

  describe('ranking', () => {
    it('puts the exact name first, then names starting with the text, then names with a word starting with it', async () => {
      expect(await ids('lincoln')).toEqual(['140003', '140001', '140005', '140004', '140002']);
      const [first] = await suggest('Lincoln');
      expect(first).toEqual({ text: 'LINCOLN', id: '140003', sub_text: 'SPRINGFIELD, IL' });
    });

    it('matches a prefix of any word, not the middle of one', async () => {
      expect(await ids('abra')).toEqual(['140002']);
      expect(await ids('lincoln hi')).toEqual(['140001', '140005', '140002', '140003', '140004']);
      expect(await ids('coln')).toEqual([]);
      expect(await ids('north cent')).toEqual(['140009']);
      expect(await ids('central north')).toEqual(['140009']);
    });

    it('ignores case, punctuation and accents, and reads abbreviations both ways', async () => {
      expect(await ids('st marys')).toEqual(['140006', '140007']);
      expect(await ids("St. Mary's")).toEqual(['140006', '140007']);
      expect(await ids('SAINT MARY')).toEqual(['140007', '140006']);
      expect(await ids('odea')).toEqual(['140011']);
      expect(await ids('Ódea')).toEqual(['140011']);
      expect(await ids('lincoln hs')).toEqual(['140001', '140005', '140002', '140003', '140004']);
      expect(await ids('Lincoln High School')).toEqual(['140001', '140005', '140002', '140003', '140004']);
    });

    it('tolerates a missing "High School", "HS" or "Senior"', async () => {
      expect(await ids('washington high school')).toEqual(['140010']);
      expect((await ids('lincoln senior high school')).slice(0, 2)).toEqual(['140005', '140001']);
      expect(await ids('lincoln senior')).toContain('140003');
      expect(await ids('high school')).toEqual(['012345', '140011', '140008', '140001', '140007']);
    });

    it('finds a school by a word of its city, after the names that match', async () => {
      expect(await ids('omaha central')).toEqual(['140008']);
      expect(await ids('central')).toEqual(['140008', '140009']);
    });

    it('finds a school by the digits of its CEEB code, leading zeros kept', async () => {
      expect(await ids('0123')).toEqual(['012345']);
      expect(await ids('14000')).toEqual(['140001', '140002', '140003', '140004', '140005']);
    });

    it('keeps the categories apart', async () => {
      expect(await ids('charter', 'college_ceeb')).toEqual(['3453']);
      expect(await ids('charter')).toEqual([]);
    });

    it('offers colleges by their IPEDS name when matched, and never the unmatched ones', async () => {
      expect(await suggest('university of mich', 'college_ceeb')).toEqual([{ text: 'University of Michigan-Ann Arbor', id: '1839', sub_text: 'Ann Arbor, MI' }]);
      expect(await ids('centrl alabama', 'college_ceeb')).toEqual(['0189']);
      expect(await ids('far north', 'college_ceeb')).toEqual([]);
    });

    it('asks the database once per look-up, whichever tiers the text needs', async () => {
      // each statement is a trip to the database (PGlite's thread, or PostgreSQL): counted as they answer
      let statements = 0;
      const counting = server.app.db.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async (args) => {
          statements++;
          return args.result;
        },
      });
      // digits (codes, then names), a partial abbreviation (two name prefixes), words with and
      // without optional ones, a text the cheap tiers fill, one too short for the word tier
      for (const text of ['0123', 'lincoln hs', 'omaha central', 'lincoln senior high school', 'lincoln', 'li', 'zzzz']) {
        statements = 0;
        await findSuggestions(counting, 'hs_ceeb', text, 5);
        expect(statements, text).toBe(1);
      }
      expect(await ids('omaha central')).toEqual(['140008']);
    });

    it('sends its statement named: parsed once per connection, not at every keystroke', async () => {
      // a transaction keeps one connection, so what the look-up prepared is visible to it
      await server.app.db.transaction().execute(async (tx) => {
        expect((await findSuggestions(tx, 'hs_ceeb', 'omaha central', 5)).map((item) => item.id)).toEqual(['140008']);
        const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(tx);
        // one per shape of the statement this connection has run (which tiers a text needed)
        const lookups = rows.filter((row) => row.statement.includes('to_tsquery'));
        expect(lookups.length).toBeGreaterThan(0);
        for (const { name } of lookups) expect(name).toMatch(/^prepared_\d+$/);
      });
    });

    it('finds ZIP codes by their digits or their city', async () => {
      expect(await suggest('841', 'address')).toEqual([
        { text: '84101', id: '84101', sub_text: 'Salt Lake City, UT' },
        { text: '84102', id: '84102', sub_text: 'Salt Lake City, UT' },
      ]);
      expect(await ids('salt la', 'address')).toEqual(['84101', '84102']);
      expect(await ids('lake', 'address')).toEqual(['84101', '84102']);
      expect(await ids('021', 'address')).toEqual(['02138']);
    });
  });

  describe('full record', () => {
    it('answers a school with its CEEB code and the country as alpha-3', async () => {
      const { status, body } = await find({ id: '140008', category: 'hs_ceeb' });
      expect(status).toBe(200);
      expect(body).toEqual({ name: 'CENTRAL HIGH SCHOOL', address_line_1: null, city: 'OMAHA', state: 'NE', zip: '68102', ceeb: '140008', country: 'USA' });
    });

    it('answers a matched college with its IPEDS name and street address, a review match without the address', async () => {
      expect((await find({ id: '3453', category: 'college_ceeb' })).body).toEqual({
        name: 'Charter College', address_line_1: '2221 East Northern Lights Boulevard, Suite 120',
        city: 'Anchorage', state: 'AK', zip: '99508-4103', ceeb: '3453', country: 'USA',
      });
      expect((await find({ id: '0189', category: 'college_ceeb' })).body).toEqual({
        name: 'CENTRL ALABAMA C C CHILDSBRG', address_line_1: null, city: 'ALEX CITY', state: 'AL', zip: '35010', ceeb: '0189', country: 'USA',
      });
    });

    it('answers a ZIP with its city, state and country', async () => {
      expect((await find({ id: '02138', category: 'address' })).body).toEqual({
        name: null, address_line_1: null, city: 'Cambridge', state: 'MA', zip: '02138', ceeb: null, country: 'USA',
      });
    });

    it('answers 404 with a message for an unknown id', async () => {
      const { status, body } = await find({ id: '999999', category: 'hs_ceeb' });
      expect(status).toBe(404);
      expect(body).toEqual({ message: expect.any(String), code: 'NOT_FOUND' });
    });
  });

  describe('bad parameters', () => {
    it('refuses an unknown or missing category with 400 and a JSON message', async () => {
      const queries: Record<string, string>[] = [{ text: 'lincoln', category: 'schools' }, { text: 'lincoln' }, { id: '140001', category: 'HS_CEEB' }];
      for (const query of queries) {
        const { status, body, type } = await find(query);
        expect(status).toBe(400);
        expect(type).toMatch(/^application\/json/);
        expect(body).toEqual({ message: 'Unknown look-up category. Use one of: hs_ceeb, college_ceeb, address.', code: 'UNKNOWN_CATEGORY' });
      }
    });

    it('answers an empty list for empty, blank or punctuation-only text', async () => {
      expect(await suggest('')).toEqual([]);
      expect(await suggest('   ')).toEqual([]);
      expect(await suggest('?!.')).toEqual([]);
      expect((await find({ category: 'hs_ceeb' })).body).toEqual([]);
    });

    it('clamps max_results to 1..20', async () => {
      const many = Array.from({ length: 30 }, (_, index) => ({
        line: index + 2, fields: { zip: String(10_001 + index), city: 'Clamp City', state: 'NY', country: 'US' },
      }));
      await importLookups(server.app.db, 'address', { header: ['zip', 'city', 'state', 'country'], lines: many });
      expect(await suggest('clamp', 'address', { max_results: '1000000' })).toHaveLength(20);
      expect(await suggest('clamp', 'address', { max_results: '0' })).toHaveLength(1);
      expect(await suggest('clamp', 'address', { max_results: '-3' })).toHaveLength(1);
      expect(await suggest('clamp', 'address', { max_results: 'lots' })).toHaveLength(5);
      expect(await suggest('clamp', 'address')).toHaveLength(5);
      expect(await suggest('clamp', 'address', { max_results: '12' })).toHaveLength(12);
    });

    it('copes with very long text', async () => {
      expect(await suggest(`lincoln ${'x'.repeat(5000)}`)).toEqual([]);
    });

    it('is GET only and public', async () => {
      const post = await server.app.inject({ method: 'POST', url: '/lookup/find', headers: { 'content-type': 'application/json' }, payload: '{}' });
      expect(post.statusCode).toBe(404);
      const response = await server.app.inject({ method: 'GET', url: '/lookup/find?text=lincoln&category=hs_ceeb' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
    });
  });

  describe('import', () => {
    it('reports malformed rows with their line and reason and loads only the good ones', async () => {
      const report = await importLookups(server.app.db, 'hs_ceeb', fixture('hs_ceeb_malformed.csv'));
      expect(report.read).toBe(14);
      expect(report.rejected).toEqual([
        { line: 3, reason: 'missing name' },
        { line: 4, reason: 'ceeb "15A003" is not 6 digits' },
        { line: 5, reason: expect.stringMatching(/^not valid CSV/) },
        { line: 7, reason: '4 fields where the header has 9' },
        { line: 8, reason: 'duplicate code 150001 (first on line 2)' },
        { line: 9, reason: 'unknown country "ZZ"' },
        { line: 10, reason: 'state "XX" is not a state or province of USA' },
        { line: 11, reason: 'zip "VIC 3" is not a US ZIP code' },
        { line: 15, reason: 'missing city' },
        { line: 16, reason: 'ceeb "1500140" is not 6 digits' },
      ]);
      expect(report.inserted).toBe(4);
      expect(await ids('good school')).toEqual(['150001', '150005']);
      expect((await find({ id: '050011', category: 'hs_ceeb' })).body).toMatchObject({ name: 'LOST ITS ZERO SCHOOL', zip: '03702' });
      expect(await suggest('quoted')).toEqual([{ text: 'QUOTED, WITH COMMA', id: '150012', sub_text: 'BOISE, ID' }]);
      for (const id of ['150002', '150004', '150006', '150008', '150009', '150010', '150013']) {
        expect((await find({ id, category: 'hs_ceeb' })).status).toBe(404);
      }
    });

    it('skips colleges that are not matched or under review, saying why', async () => {
      const report = await importLookups(server.app.db, 'college_ceeb', fixture('college_ceeb.csv'));
      expect(report.skipped).toEqual([{ line: 4, reason: 'match_status none: not a college to offer' }]);
      expect(report.rejected).toEqual([]);
    });

    it('is idempotent: loading the same list again changes nothing, a changed entry is updated', async () => {
      const again = await importLookups(server.app.db, 'hs_ceeb', fixture('hs_ceeb.csv'));
      expect(again).toMatchObject({ read: 12, inserted: 0, updated: 0, unchanged: 12, removed: 0, rejected: [] });
      const before = await countLookups(server.app.db, 'hs_ceeb');

      const renamed = fixture('hs_ceeb.csv');
      const line = renamed.lines.find((entry) => 'fields' in entry && entry.fields.ceeb === '140010');
      if (!line || !('fields' in line)) throw new Error('fixture changed');
      line.fields.name = 'WASHINGTON HIGH SCHOOL';
      const changed = await importLookups(server.app.db, 'hs_ceeb', renamed);
      expect(changed).toMatchObject({ inserted: 0, updated: 1, unchanged: 11 });
      expect(await countLookups(server.app.db, 'hs_ceeb')).toBe(before);
      expect(await suggest('washington')).toEqual([{ text: 'WASHINGTON HIGH SCHOOL', id: '140010', sub_text: 'SIOUX FALLS, SD' }]);
    });

    it('refuses a file without the needed columns, loading nothing', async () => {
      const before = await countLookups(server.app.db, 'hs_ceeb');
      await expect(importLookups(server.app.db, 'hs_ceeb', readCsv('code,title\n123456,SOME SCHOOL\n')))
        .rejects.toThrow('the file has no ceeb, name, city, state column');
      expect(await countLookups(server.app.db, 'hs_ceeb')).toBe(before);
    });

    it('with replace, removes the entries the new list does not have', async () => {
      const report = await importLookups(server.app.db, 'address', fixture('address.csv'), { replace: true });
      expect(report.removed).toBe(30); // the Clamp City ZIPs
      expect(await countLookups(server.app.db, 'address')).toBe(4);
    });
  });

  describe('rate limit', () => {
    it('answers 429 with a message past 600 look-ups a minute from one address', async () => {
      const address = { remoteAddress: `10.9.8.${target.name === 'pglite' ? 1 : 2}` };
      let last = await server.app.inject({ method: 'GET', url: '/lookup/find?text=&category=hs_ceeb', ...address });
      for (let count = 1; count <= 600 && last.statusCode === 200; count++) {
        last = await server.app.inject({ method: 'GET', url: '/lookup/find?text=&category=hs_ceeb', ...address });
      }
      expect(last.statusCode).toBe(429);
      expect(last.json()).toEqual({ message: expect.stringMatching(/Too many attempts/), code: 'RATE_LIMITED' });
      const other = await server.app.inject({ method: 'GET', url: '/lookup/find?text=&category=hs_ceeb', remoteAddress: '10.9.7.1' });
      expect(other.statusCode).toBe(200);
    });
  });
});

describe('import command', () => {
  it('prints rows read, loaded and rejected with reasons, and loads the same file twice without change', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lookup-import-'));
    // a copy of the migrated template, as a first start would make it, without initdb's seconds
    seedEmbeddedDatabase(dataDir);
    const run = (...args: string[]) => promisify(execFile)(process.execPath, builtCommand('import-lookups', ...args), {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    try {
      const first = await run('--category', 'hs_ceeb', 'tests/fixtures/lookups/hs_ceeb_malformed.csv');
      expect(first.stdout).toContain('rows read: 14');
      expect(first.stdout).toContain('loaded:    4 (inserted 4, updated 0, unchanged 0)');
      expect(first.stdout).toContain('rejected:  10');
      expect(first.stdout).toContain('line 3: missing name');
      const second = await run('--category', 'hs_ceeb', 'tests/fixtures/lookups/hs_ceeb_malformed.csv');
      expect(second.stdout).toContain('loaded:    4 (inserted 0, updated 0, unchanged 4)');
      const zips = await run('--category', 'address', '--from-zipcodes');
      // Palau, Micronesia and the Marshall Islands are countries, not states: their 8 ZIPs are refused with the reason
      expect(zips.stdout).toMatch(/loaded: {4}42547 \(inserted 42547,/);
      expect(zips.stdout).toContain('state "PW" is not a state or province of USA');
      await expect(run('--category', 'schools', 'x.csv')).rejects.toMatchObject({ code: 2 });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    // a ceiling, not a speed claim: three commands and 42,547 rows on a machine that may be busy
  }, 300_000);
});
