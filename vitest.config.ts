import { chmodSync, mkdtempSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { TEST_SECRETS_KEY } from './support/test-secrets-key.ts';
import SlowFirstSequencer from './tests/helpers/slow-first-sequencer.ts';

// the tests run on the project's own Node.js (the lockfile's `node` package), which npm scripts
// and npx put first on the PATH; node_modules/.bin/vitest started from a shell finds the machine's
const runtime = (JSON.parse(readFileSync(resolve(import.meta.dirname, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> })
  .packages['node_modules/node']!.version;
if (process.versions.node.split('.')[0] !== runtime.split('.')[0]) {
  throw new Error(`Vitest runs on Node.js ${process.version}, the project on ${runtime}: run it through npm or npx`);
}

/**
 * Three lanes (tests/README.md), each a Vitest project, so a change to one module can be
 * checked in seconds and the whole suite still runs with one command:
 * - unit: one module at a time, no server, no database, no browser, no build;
 * - server: the server on real databases, mail and converters (needs the built client for the PDF copy);
 * - e2e: Chromium against the built client.
 * `vitest run` runs all three; `--project unit` (npm run test:unit) one.
 */
/**
 * What the server and end-to-end lanes share. A worker runs its files one after another in
 * one module cache (`isolate: false`): the server's modules load once per worker, not once
 * per file (a full run: 77 s of import against 187). So a file closes what it starts and
 * puts back any environment variable it sets; each file still has its own servers and
 * databases. The global set-up builds dist/server when stale, copies one migrated PGlite
 * template, and checks the services CI requires.
 */
/**
 * The tests' temporary files go to a file system in memory where the machine has one with
 * room: each server a test starts copies the 1,092 files of the database template, which on
 * this machine kind's disk took 0.5 s of the kernel's time and 0.04 s in memory, and the
 * converters and browsers write profiles of many small files. One folder for the run (all its
 * processes inherit TMPDIR), removed as it ends. TEST_TMPDIR names another folder.
 */
function testTempDir(): string | undefined {
  if (process.env.TEST_TMPDIR) return process.env.TEST_TMPDIR;
  try {
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize < 4 * 1024 ** 3) return undefined; // a container's small /dev/shm: the disk, then
    const dir = mkdtempSync(join('/dev/shm', 'admission-tests-'));
    // as /tmp is: the converters run as a user of their own (libreOfficeSandbox in src/server/documents/libreoffice.ts)
    chmodSync(dir, 0o1777);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  } catch {
    return undefined; // no /dev/shm (not Linux): the system's temporary folder
  }
}
const tempDir = testTempDir();
if (tempDir) process.env.TMPDIR = tempDir;

// what the tests set up, counted by every process of the run (support/test-units.ts)
const unitsDir = mkdtempSync(join(tempDir ?? tmpdir(), 'test-units-'));
process.env.TEST_UNITS_FILE = join(unitsDir, 'units');
process.once('exit', () => rmSync(unitsDir, { recursive: true, force: true }));

const withServers = {
  isolate: false,
  globalSetup: ['tests/helpers/built-server.ts', 'support/pglite-template.ts', 'tests/helpers/required-services.ts'],
};

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    env: {
      // commands and servers a test spawns on one PostgreSQL database share its sealing key
      SECRETS_KEY: TEST_SECRETS_KEY,
      // the in-process servers start their database thread and untrusted-file processes from
      // the build (rebuilt by tests/helpers/built-server.ts when stale), not through tsx
      BUILT_WORKERS_DIR: resolve(import.meta.dirname, 'dist', 'server'),
    },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits for a state: its default 1 s is a guess about time, which a busy machine beats
    expect: { poll: { timeout: 15_000 } },
    // One file more than the cores (no two share a port, a database or a converter: each
    // server has its own). A file also waits (an autosave's pause, a converter, a screen
    // reader's quiet), and on two cores a third file fills about half of those waits: Vitest
    // took 625 s instead of 719 s, for about 8 % more CPU (contention, a third module cache).
    // On a slow machine, whose cores are busy already, it gains little for a tenth more CPU.
    // Four were slower: the cores were then always busy, and each file took twice as long.
    // TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.TEST_WORKERS ?? availableParallelism() + 1),
    // what was skipped, and why, at the end of a run (a skip never passes silently)
    reporters: ['default', './tests/helpers/skip-summary-reporter.ts', './tests/helpers/test-units-reporter.ts'],
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'] } },
      { extends: true, test: { name: 'server', include: ['tests/server/**/*.test.ts'], ...withServers } },
      { extends: true, test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], ...withServers } },
    ],
  },
});
