import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { missingServices } from './required-services.ts';

/**
 * Prints, at the end of a run, every test that was skipped and why, so that a green run
 * that left the PostgreSQL or LibreOffice tests out says so (in CI those fail the run
 * instead: required-services.ts).
 */
export default class SkipSummaryReporter implements Reporter {
  private filtered = false;

  onInit(vitest: Vitest): void {
    // a run narrowed with -t skips the rest on purpose
    this.filtered = Boolean(vitest.config.testNamePattern);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const skipped: string[] = [];
    const lanes = new Set(modules.map((module) => module.project.name));
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state !== 'skipped' || test.options.mode === 'todo' || this.filtered) continue;
        skipped.push(`  ${module.relativeModuleId} > ${test.fullName}${result.note ? ` (${result.note})` : ''}`);
      }
    }
    // the unit lane needs none of the services: no word of them after `npm run test:unit`
    const missing = lanes.has('server') || lanes.has('e2e') ? missingServices() : [];
    if (skipped.length === 0 && missing.length === 0) return;
    const lines = ['', `Skipped: ${skipped.length} test${skipped.length === 1 ? '' : 's'}`, ...skipped];
    if (missing.length > 0) lines.push('Not on this machine:', ...missing.map((line) => `  ${line}`));
    console.log(lines.join('\n'));
  }
}
