import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Reporter } from 'vitest/node';

/**
 * Prints, at the end of a run, how many browser contexts, axe runs and servers its tests set
 * up (support/test-units.ts): with each one's CPU (`npm run bench:test-units`), the floor
 * of what the suite costs while its tests need them.
 */
export default class TestUnitsReporter implements Reporter {
  onTestRunStart(): void {
    // a watch mode's next run counts afresh
    if (process.env.TEST_UNITS_FILE) writeFileSync(process.env.TEST_UNITS_FILE, '');
  }

  onTestRunEnd(): void {
    const file = process.env.TEST_UNITS_FILE;
    if (!file || !existsSync(file)) return;
    const counts = new Map<string, number>();
    for (const unit of readFileSync(file, 'utf8').split('\n').filter(Boolean)) counts.set(unit, (counts.get(unit) ?? 0) + 1);
    if (counts.size === 0) return;
    console.log(`\nSet up by the tests: ${[...counts].sort(([a], [b]) => a.localeCompare(b)).map(([unit, count]) => `${count} × ${unit}`).join(', ')}`);
  }
}
