// Builds the server and the office's commands to plain JavaScript in dist/server, so that
// `npm start`, the commands and the tests' server processes start from one bundle instead
// of compiling hundreds of TypeScript modules through tsx at every start (about a second of
// CPU each time: docs/testing.md). Packages stay in node_modules, loaded by Node itself.
// The schema files the server imports are bundled, as in the client: a change to them
// needs this build again (scripts/ensure-build.mjs does it).
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');
export const SERVER_OUT = join(ROOT, 'dist', 'server');

/** What runs as its own process or thread: each gets a file of its name in dist/server. */
export const SERVER_ENTRIES = [
  'src/server/main.ts',
  // started by the server itself, beside the module that starts them (siblingEntry)
  'src/server/db/pglite-worker.ts',
  'src/server/documents/untrusted-file-process.ts',
  // the office's commands (package.json)
  'scripts/outbox.ts',
  'scripts/webhooks.ts',
  'scripts/reminders.ts',
  'scripts/report-funnel.ts',
  'scripts/service-link.ts',
  'scripts/office-key.ts',
  'scripts/file-items.ts',
  'scripts/prefill-link.ts',
  'scripts/export-applications.ts',
  'scripts/import-lookups.ts',
];

/** Files the bundle reads beside itself at run time. */
const ASSETS = ['src/server/documents/uno-bridge.py'];

export async function buildServer() {
  mkdirSync(SERVER_OUT, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: SERVER_ENTRIES,
    outdir: SERVER_OUT,
    // one flat folder: a worker's file is found beside whichever chunk starts it
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    metafile: true,
  });
  const kept = new Set(Object.keys(result.metafile.outputs).map((path) => path.split('/').at(-1)));
  for (const asset of ASSETS) {
    const name = asset.split('/').at(-1);
    copyFileSync(join(ROOT, asset), join(SERVER_OUT, name));
    kept.add(name);
  }
  // the last build's chunks go only now: a server running from this folder starts its
  // workers from it, and never finds a file missing
  for (const name of readdirSync(SERVER_OUT)) if (!kept.has(name)) rmSync(join(SERVER_OUT, name), { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer();
