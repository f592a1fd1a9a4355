// Makes sure the Debian packages the app and its tests drive are on the machine: Chromium
// (end-to-end tests) and its headless shell (the PDF copy), LibreOffice with python3-uno
// (Word conversion), poppler (PDF text in tests), the DejaVu fonts and bubblewrap (the
// converters' own file system); for the tests only, the Orca screen reader with its virtual
// display. Installs what is
// missing when this process may (root with apt-get); otherwise stops at once with the one
// command to run, rather than letting a test run fail by the hundred. Node's modules only.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { requireProjectNode } from './lib/project-node.mjs';

requireProjectNode();

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

const requirements = [
  { pkg: 'chromium', present: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') || onPath('chromium') },
  // the PDF copy's printer: the same Chromium without a browser window, less CPU per print
  { pkg: 'chromium-headless-shell', present: () => Boolean(process.env.CHROMIUM_PATH) || onPath('chromium-headless-shell') },
  // soffice alone is not enough: Writer is its own package, and without it Word files fail
  { pkg: 'libreoffice-writer-nogui', present: () => onPath('soffice') && existsSync('/usr/lib/libreoffice/program/libswlo.so') },
  { pkg: 'python3-uno', present: () => spawnSync('/usr/bin/python3', ['-c', 'import uno'], { stdio: 'ignore' }).status === 0 },
  { pkg: 'poppler-utils', present: () => onPath('pdftotext') },
  { pkg: 'fonts-dejavu-core', present: () => existsSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf') },
  // the converters' own file system: LibreOffice and Chromium see only their folders and the program files
  { pkg: 'bubblewrap', present: () => onPath('bwrap') },
  // the tests' screen reader (support/screen-reader.ts): Orca reading Chromium on a virtual display
  ...[['orca', '/usr/bin/orca'], ['xvfb', '/usr/bin/Xvfb'], ['dbus-x11', '/usr/bin/dbus-launch'], ['at-spi2-core', '/usr/libexec/at-spi-bus-launcher'], ['xdotool', '/usr/bin/xdotool']]
    .map(([pkg, path]) => ({ pkg, present: () => existsSync(path), only: 'test' })),
];

const purpose = process.argv[2] ?? 'test';
if (process.env.SKIP_SYSTEM_PACKAGES === '1') process.exit(0);

const needed = requirements.filter((r) => !r.only || r.only === purpose);
const missing = needed.filter((r) => !r.present()).map((r) => r.pkg);
if (missing.length === 0) process.exit(0);

const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
const mayInstall = process.getuid?.() === 0 && onPath('apt-get');
if (!mayInstall) {
  console.error(`\nMissing Debian packages: ${missing.join(', ')}.`);
  console.error(`Run this once as root, then 'npm ${purpose}' again:\n\n  sudo sh -c '${command}'\n`);
  if (purpose === 'start') console.error("(Or set SKIP_SYSTEM_PACKAGES=1 to start without Word conversion and the PDF copy.)\n");
  process.exit(1);
}

console.log(`Installing Debian packages: ${missing.join(' ')}`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execSync('apt-get update -qq', { stdio: 'inherit', env });
execSync(`apt-get install -y -qq --no-install-recommends ${missing.join(' ')}`, { stdio: 'inherit', env });
const still = needed.filter((r) => !r.present()).map((r) => r.pkg);
if (still.length > 0) {
  console.error(`Installed, yet still missing: ${still.join(', ')}`);
  process.exit(1);
}
