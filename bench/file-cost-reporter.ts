import { readFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * The CPU time each test file costs, every process it starts included (its servers' threads,
 * Chromium's, LibreOffice's): the run's control group is read as a file starts and ends. Exact
 * only with one file at a time, so run it with one worker, inside bench/suite-cost.sh (which
 * makes the control group):
 *
 *   bench/suite-cost.sh env TEST_WORKERS=1 npx vitest run --reporter=default --reporter=./bench/file-cost-reporter.ts
 *
 * It prints the files by their cost, the most first, with each lane's sum (docs/testing.md).
 */

/** CPU seconds the control group of this process has used (cgroup v2, or v1's cpuacct). */
function groupCpuSeconds(): number | undefined {
  const lines = readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n');
  const v2 = lines.find((line) => line.startsWith('0::'));
  const v1 = lines.find((line) => /^\d+:[^:]*\bcpuacct\b[^:]*:/.test(line));
  try {
    if (v1) {
      const path = v1.split(':').slice(2).join(':');
      return Number(readFileSync(`/sys/fs/cgroup/cpuacct${path}/cpuacct.usage`, 'utf8')) / 1e9;
    }
    if (v2) {
      const stat = readFileSync(`/sys/fs/cgroup${v2.slice(3)}/cpu.stat`, 'utf8');
      return Number(/^usage_usec (\d+)/m.exec(stat)![1]) / 1e6;
    }
  } catch {
    return undefined; // no control group to read
  }
  return undefined;
}

const row = (cost: { file: string; cpu: number; wall: number }) => `${cost.cpu.toFixed(1).padStart(7)} s CPU ${cost.wall.toFixed(1).padStart(7)} s wall  ${cost.file}`;

export default class FileCostReporter implements Reporter {
  private readonly started = new Map<string, { cpu: number; at: number }>();
  private readonly costs: { file: string; lane: string; cpu: number; wall: number }[] = [];
  /** CPU between one file's end and the next one's start (a worker starting, a file's imports) */
  private between = 0;
  private lastEnd: number | undefined;

  onTestModuleStart(module: TestModule): void {
    const cpu = groupCpuSeconds();
    if (cpu === undefined) return;
    if (this.lastEnd !== undefined) this.between += cpu - this.lastEnd;
    this.started.set(module.moduleId, { cpu, at: performance.now() });
  }

  onTestModuleEnd(module: TestModule): void {
    const start = this.started.get(module.moduleId);
    const cpu = groupCpuSeconds();
    if (!start || cpu === undefined) return;
    this.lastEnd = cpu;
    const cost = { file: module.relativeModuleId, lane: module.project.name, cpu: cpu - start.cpu, wall: (performance.now() - start.at) / 1000 };
    this.costs.push(cost);
    // as it goes too, so that a run cut short still tells
    console.log(`file-cost: ${row(cost)}`);
  }

  onTestRunEnd(): void {
    if (!this.costs.length) {
      console.log('file-cost: no control group to read (run it inside bench/suite-cost.sh)');
      return;
    }
    const lanes = new Map<string, number>();
    for (const cost of this.costs) lanes.set(cost.lane, (lanes.get(cost.lane) ?? 0) + cost.cpu);
    const rows = [...this.costs].sort((a, b) => b.cpu - a.cpu)
      .map(row);
    console.log(['', 'file-cost: CPU of each file, every process it started (one file at a time)', ...rows,
      ...[...lanes].map(([lane, cpu]) => `${cpu.toFixed(1).padStart(7)} s CPU in the ${lane} lane`),
      `${this.between.toFixed(1).padStart(7)} s CPU between files`].join('\n'));
  }
}
