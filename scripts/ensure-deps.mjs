// Installs the npm packages when they are missing or older than the lockfile, so that
// `npm start` and `npm test` work on a fresh clone. Uses only Node's own modules: on a fresh
// clone it runs on whatever Node.js the machine has, since the project's own Node.js (the
// `node` package, package.json's `engines`) is not yet in node_modules/.bin. The npm scripts
// call it as `npm run deps` first, so their shell looks `node` up only afterwards and finds
// the project's (a shell remembers where it found a command).
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const runtime = lock.packages['node_modules/node']?.version;
if (!runtime) throw new Error('package-lock.json has no node package: the project runs on the Node.js it installs');
const major = (version) => Number(version.replace(/^v/, '').split('.')[0]);

const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync('package-lock.json').mtimeMs;
// the install speaks at npm's usual level though the scripts call this with `npm run --silent`;
// and what `npm exec` below hands its command is not meant for the project's install
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_(loglevel|package|yes|allow_scripts)$/i.test(name)));
if (stale && major(process.version) === major(runtime)) {
  console.log(`Installing npm packages (npm ci, Node.js ${process.version})...`);
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit', env });
} else if (stale) {
  // npm and the packages' install scripts run under the Node.js the packages are installed
  // for, not this machine's older one: npm exec brings that Node.js from the registry (the
  // `node` package, cached by npm) and runs this script again with it first on the PATH
  console.log(`This machine has Node.js ${process.version}; the project runs on ${runtime}, from the npm registry.`);
  execSync(`npm exec --yes --package=node@${runtime} -- node scripts/ensure-deps.mjs`, { stdio: 'inherit', env });
}

if (stale) {
  const installed = execFileSync('node_modules/.bin/node', ['--version'], { encoding: 'utf8' }).trim();
  if (installed !== `v${runtime}`) throw new Error(`node_modules/.bin/node is ${installed}, not the lockfile's ${runtime}`);
}
