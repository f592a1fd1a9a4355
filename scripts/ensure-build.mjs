// Builds the client when dist/client is missing or older than its sources (the build's
// own plugins in scripts/vite among them), so that
// `npm start`, the benchmarks and the export work on a fresh clone (they read the generated
// types and the built pages) and start at once when nothing changed. It speaks on stderr:
// an export may be writing to stdout.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const built = existsSync('dist/client/index.html') ? statSync('dist/client/index.html').mtimeMs : 0;
const sources = Math.max(...['src/client', 'src/shared', 'schemas', 'index.html', 'vite.config.ts', 'scripts/vite', 'package-lock.json'].map(newest));
if (sources > built) {
  console.error('Building the client (npm run build)...');
  // always the production bundle: `npm start` under NODE_ENV=test (tests/e2e/quick-start.test.ts)
  // otherwise built development React into the dist/ that later tests and benchmarks use
  execSync('npm run build', { stdio: ['inherit', process.stderr, 'inherit'], env: { ...process.env, NODE_ENV: 'production' } });
}
