import { appendFileSync } from 'node:fs';

/**
 * What a test run sets up, counted: each is a fixed cost a test pays before its subject
 * (docs/testing.md, "What the suite costs"), so the run's tally times each one's cost
 * (`npm run bench:test-units`) is the least the suite can cost as long as its tests need
 * them. Counted only in a test run (vitest.config.ts names the file); a benchmark counts nothing.
 */
export type TestUnit = 'browser context' | 'axe run' | 'in-process server' | 'server process';

export function countUnit(unit: TestUnit): void {
  const file = process.env.TEST_UNITS_FILE;
  // one short line per unit: appends from the run's processes do not interleave
  if (file) appendFileSync(file, `${unit}\n`);
}
