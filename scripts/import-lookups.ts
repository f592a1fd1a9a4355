/**
 * Loads a look-up list into the app's database (the one DATABASE_URL or DATA_DIR names, as
 * for `npm start`). README "Look-up data" documents the columns. The lines are checked
 * here; on the embedded database a running server writes the rows (lib/data-access.ts).
 *
 *   npm run import:lookups -- --category hs_ceeb FILE.csv [--replace]
 *   npm run import:lookups -- --category address --from-zipcodes
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { LOOKUP_CATEGORIES, isLookupCategory } from '../src/server/lookups/categories.ts';
import { openDataAccess } from './lib/data-access.ts';
import { readCsv } from './lookups/csv-lines.ts';
import { completeReport, formatReport, prepareLookups } from './lookups/import-lookups.ts';
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

const data = await openDataAccess('npm run import:lookups');
try {
  const prepared = prepareLookups(category, file);
  const writes = await data.call('lookups.write', { category, rows: prepared.rows, replace: values.replace });
  console.log(formatReport(completeReport(prepared, writes), path ?? 'the zipcodes package'));
} catch (error) {
  console.error(`${category}: nothing loaded: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await data.close();
}
