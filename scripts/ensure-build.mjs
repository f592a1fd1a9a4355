// Builds what is missing or older than its sources, so that `npm start`, the office's
// commands, the benchmarks and the export work on a fresh clone and start at once when
// nothing changed: the client (dist/client, about two minutes) and the server and
// commands (dist/server, about a second). `--server` builds only the latter, for the
// commands that serve no page. It speaks on stderr: an export may be writing to stdout.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer } from './build-server.mjs';
import { ensureGenerated } from './ensure-generated.mjs';
import { requireProjectNode } from './lib/project-node.mjs';

requireProjectNode();

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const builtAt = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);
const newestOf = (paths) => Math.max(...paths.map(newest));

if (!process.argv.includes('--server')) {
  const sources = newestOf(['src/client', 'src/shared', 'schemas', 'index.html', 'vite.config.ts', 'scripts/vite', 'package-lock.json']);
  if (sources > builtAt('dist/client/index.html')) {
    console.error('Building the client (npm run build:client)...');
    // always the production bundle: `npm start` under NODE_ENV=test (tests/e2e/quick-start.test.ts)
    // otherwise built development React into the dist/ that later tests and benchmarks use
    execSync('npm run gen:types && npm run build:client', { stdio: ['inherit', process.stderr, 'inherit'], env: { ...process.env, NODE_ENV: 'production' } });
  }
}

// the server bundles the generated form: a fresh clone that built no client has none yet
ensureGenerated();
// the commands' own sources are in scripts/ (their shared modules in scripts/lib and scripts/lookups)
if (newestOf(['src/server', 'src/shared', 'schemas', 'scripts', 'package-lock.json']) > builtAt('dist/server/main.js')) {
  console.error('Building the server (npm run build:server)...');
  await buildServer();
}
