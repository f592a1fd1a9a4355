// Makes sure src/shared/generated/ (what `npm run gen:types` makes from schemas/: the form
// model, the validators, the types) is there and newer than what it is made from, so that a
// command run from the sources works on a fresh clone, as `npm start` does. It generates from
// this checkout's schemas/, whatever SCHEMAS_DIR names (a command may read another folder, the
// generated modules are this checkout's). It speaks on stderr: a command may write JSON to stdout.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** The file the generator writes last; while it is missing or older than its sources, the rest may be too. */
const MARKER = join(ROOT, 'src', 'shared', 'generated', 'form-model.json');
const SOURCES = ['schemas', 'scripts/generate', 'scripts/i18n', 'scripts/generate.ts'].map((path) => join(ROOT, path));

export function ensureGenerated() {
  const built = existsSync(MARKER) ? statSync(MARKER).mtimeMs : 0;
  if (built >= Math.max(...SOURCES.map(newest))) return;
  console.error('Generating the form from schemas/ (npm run gen:types)...');
  const { SCHEMAS_DIR: _ignored, ...env } = process.env;
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'generate.ts')], { cwd: ROOT, env, stdio: ['ignore', process.stderr, 'inherit'] });
  // the generator leaves a file it would write the same untouched: marked as made now, for the next check
  const now = new Date();
  utimesSync(MARKER, now, now);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) ensureGenerated();
