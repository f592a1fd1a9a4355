/**
 * Loads a look-up list into the app's database (the one DATABASE_URL or DATA_DIR names, as
 * for `npm start`). README "Look-up data" documents the columns.
 *
 *   npm run import:lookups -- --category hs_ceeb FILE.csv [--replace]
 *   npm run import:lookups -- --category address --from-zipcodes
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { LOOKUP_CATEGORIES, isLookupCategory } from '../src/server/lookups/categories.ts';
import { readCsv } from './lookups/csv-lines.ts';
import { formatReport, importLookups } from './lookups/import-lookups.ts';
import { zipcodeLines } from './lookups/zipcode-lines.ts';
import { keepFilesPrivate } from '../src/server/lib/private-files.ts';

// what this command writes (database files, exports) is the server's user's alone, as the server's own
keepFilesPrivate();

const usage = `usage: npm run import:lookups -- --category ${LOOKUP_CATEGORIES.join('|')} FILE.csv [--replace]
       npm run import:lookups -- --category address --from-zipcodes [--replace]`;

function fail(message: string): never {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  options: {
    category: { type: 'string' },
    'from-zipcodes': { type: 'boolean', default: false },
    replace: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const category = values.category;
if (!isLookupCategory(category)) fail(`--category must be one of ${LOOKUP_CATEGORIES.join(', ')}`);
const fromZipcodes = values['from-zipcodes'];
if (fromZipcodes && category !== 'address') fail('--from-zipcodes loads the address category');
if (fromZipcodes ? positionals.length !== 0 : positionals.length !== 1) fail('name one CSV file, or --from-zipcodes');

const path = positionals[0];
let file;
try {
  file = path ? readCsv(readFileSync(path, 'utf8')) : zipcodeLines();
} catch (error) {
  fail(`cannot read ${path}: ${(error as Error).message}`);
}

const config = loadConfig();
const handle = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
try {
  const report = await importLookups(handle.db, category, file, { replace: values.replace });
  console.log(formatReport(report, path ?? 'the zipcodes package'));
} catch (error) {
  console.error(`${category}: nothing loaded: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await handle.close();
}
