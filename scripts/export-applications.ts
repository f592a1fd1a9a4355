/**
 * `npm run export:applications -- [--since <time>] [--format csv|jsonl] [--out <dir>] [--all] [--documents]`:
 * submitted applications (with --all, also those in progress) into one file in <dir>, with a
 * manifest whose next_since the next run passes as --since (docs/operations/office-export-and-staff-links.md).
 * Uses DATABASE_URL, or the embedded database: through the server when one runs on DATA_DIR
 * (lib/data-access.ts; the server writes into <dir>), else opened here; and the server's
 * storage (DATA_DIR/objects or S3_BUCKET) for --documents.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openDataAccess } from './lib/data-access.ts';
import { keepFilesPrivate } from '../src/server/lib/private-files.ts';

// what this command writes (database files, exports) is the server's user's alone, as the server's own
keepFilesPrivate();

const USAGE = 'usage: npm run export:applications -- [--since <ISO time>] [--format csv|jsonl] [--out <dir>] [--all] [--documents]';
const { values } = parseArgs({
  options: {
    since: { type: 'string' },
    format: { type: 'string', default: 'csv' },
    out: { type: 'string', default: 'exports' },
    all: { type: 'boolean', default: false },
    documents: { type: 'boolean', default: false },
  },
});
const sinceTime = values.since === undefined ? undefined : Date.parse(values.since);
if ((values.format !== 'csv' && values.format !== 'jsonl') || (sinceTime !== undefined && !Number.isFinite(sinceTime))) {
  console.error(USAGE);
  process.exit(1);
}

const data = await openDataAccess('npm run export:applications');
try {
  const started = performance.now();
  const { manifest, documents } = await data.call('applications.export', {
    since: sinceTime === undefined ? undefined : new Date(sinceTime).toISOString(),
    all: values.all, format: values.format, outDir: resolve(values.out), documents: values.documents,
  });
  console.log(`${manifest.rows} applications in ${resolve(values.out, manifest.file)} (${manifest.columns} columns) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (values.documents) {
    console.log(`documents: ${documents.written} written, ${documents.kept} already there; ${documents.applicationPdfMissing} applications have no current PDF copy yet`
      + ` (${documents.applicationPdfQueued} queued now for a server running jobs to make; run again to fetch them)`);
  }
  if (manifest.next_since) console.log(`next run: npm run export:applications -- --since ${manifest.next_since}${values.all ? ' --all' : ''} --format ${manifest.format}`);
} finally {
  await data.close();
}
