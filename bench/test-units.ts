/**
 * `npm run bench:test-units`: the CPU (user + system, every process it takes) of each thing a
 * test sets up before its subject, which a test run counts (support/test-units.ts): an
 * in-process server, a server process, a browser context with a signed-in applicant's first
 * page, the same page loaded again, and an axe run (the first in a document loads axe-core).
 * Each is the median of several. Times the run's tally, they give the floor of the suite's
 * CPU while its tests need them (docs/testing.md, "What the suite costs").
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserCommandLines, HEADLESS_SHELL_PATH, launchBrowser } from '../support/browser.ts';
import { createTemplate, seedEmbeddedDatabase } from '../support/pglite-template.ts';
import { signedInPage } from '../support/signed-in-page.ts';
import { startTestServer } from '../support/test-server.ts';
import { startServerProcess } from './load/server-process.ts';

const ROUNDS = 5;
const TICK = 100; // the kernel's clock ticks per second in /proc/<pid>/stat
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** CPU seconds of these processes and every live descendant (what ended is not counted: measure before closing). */
function treeCpu(roots: number[]): number {
  const parents = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ');
      parents.set(Number(name), Number(fields[1]));
      cpu.set(Number(name), (Number(fields[11]) + Number(fields[12])) / TICK);
    } catch {
      // ended meanwhile
    }
  }
  const within = (pid: number): boolean => roots.includes(pid) || (parents.has(pid) && pid !== 1 && within(parents.get(pid)!));
  return [...cpu].filter(([pid]) => within(pid)).reduce((sum, [, seconds]) => sum + seconds, 0);
}

const ownCpu = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1e6; };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** `node dist/server/main.js` on a copy of the template, until /healthz answers: its CPU, and what it started. */
async function serverProcessStart(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-units-'));
  seedEmbeddedDatabase(dataDir);
  const server = await startServerProcess({ dataDir, databaseUrl: '' });
  try {
    return treeCpu([server.pid]);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function axeRun(page: Page): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  await page.evaluate(async (tags) => {
    await (window as unknown as { axe: { run(context: Document, options: object): Promise<unknown> } }).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
  }, TAGS);
}

const figures: Record<string, number[]> = {
  'in-process server (start)': [], 'server process (start until /healthz)': [], 'browser context, signed in, first page (/about)': [],
  'the same page loaded again': [], 'axe run, the first in a document': [], 'axe run, the next': [],
};
// each server copies one migrated database, as in a test run (a new one costs seconds of initdb)
const template = await createTemplate();
process.env.PGLITE_TEMPLATE = join(template, 'pgdata');
const browser: Browser = await launchBrowser({ executablePath: HEADLESS_SHELL_PATH });
// this benchmark's browser, not a test run's beside it
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
const browserPid = browserCommandLines().find(({ pid }) => parentOf(pid) === process.pid)!.pid;
const both = () => ownCpu() + treeCpu([browserPid]);
try {
  for (let round = 0; round < ROUNDS; round++) {
    let before = ownCpu();
    const server = await startTestServer();
    figures['in-process server (start)']!.push(ownCpu() - before);
    figures['server process (start until /healthz)']!.push(await serverProcessStart());

    before = both();
    const { page, context } = await signedInPage(browser, server, { email: `units${round}@example.org` }, { path: '/about' });
    figures['browser context, signed in, first page (/about)']!.push(both() - before);
    before = both();
    await page.reload();
    await page.locator('#root:not([data-drawn]) main h1').waitFor();
    figures['the same page loaded again']!.push(both() - before);
    before = both();
    await axeRun(page);
    figures['axe run, the first in a document']!.push(both() - before);
    before = both();
    await axeRun(page);
    figures['axe run, the next']!.push(both() - before);
    await context.close();
    await server.close();
  }
} finally {
  await browser.close();
  rmSync(template, { recursive: true, force: true });
}
console.log(`\nCPU seconds, median of ${ROUNDS} (user + system of the test process, Chromium and the server process):`);
for (const [unit, values] of Object.entries(figures)) console.log(`  ${unit.padEnd(50)} ${median(values).toFixed(2)}`);
