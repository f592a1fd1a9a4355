/** Latencies and errors per call type. */
export class CallStats {
  private readonly samples = new Map<string, number[]>();
  private readonly errors = new Map<string, number>();
  private readonly errorExamples = new Map<string, string>();
  /** per 5 s of the run (by when the call ended): latencies of every call */
  private readonly timeline: number[][] = [];
  private readonly started = performance.now();

  record(type: string, ms: number, ok: boolean, detail?: string): void {
    const bucket = Math.floor((performance.now() - this.started) / 5000);
    (this.timeline[bucket] ??= []).push(ms);
    if (!this.samples.has(type)) this.samples.set(type, []);
    this.samples.get(type)!.push(ms);
    if (!ok) {
      this.errors.set(type, (this.errors.get(type) ?? 0) + 1);
      if (detail && !this.errorExamples.has(type)) this.errorExamples.set(type, detail);
    }
  }

  rows(seconds: number): StatRow[] {
    const rows = [...this.samples].map(([type, values]) => summarise(type, values, this.errors.get(type) ?? 0, seconds));
    const all = [...this.samples.values()].flat();
    rows.push(summarise('all', all, [...this.errors.values()].reduce((sum, n) => sum + n, 0), seconds));
    return rows;
  }

  /** "0-5 s: 812 calls, p99 12 ms | <beside[0]>" */
  timelineText(beside: string[] = []): string {
    return this.timeline.map((values, bucket) => {
      const sorted = [...(values ?? [])].sort((a, b) => a - b);
      const line = `${`${bucket * 5}-${bucket * 5 + 5} s`.padEnd(9)} ${String(sorted.length).padStart(5)} calls, p99 ${ms(percentile(sorted, 99)).padStart(4)} ms`;
      return beside[bucket] ? `${line} | ${beside[bucket]}` : line;
    }).join('\n');
  }

  examples(): string[] {
    return [...this.errorExamples].map(([type, detail]) => `${type}: ${detail}`);
  }
}

export interface StatRow {
  type: string;
  count: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  errors: number;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function summarise(type: string, values: number[], errors: number, seconds: number): StatRow {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    type, count: values.length, perSecond: values.length / seconds, errors,
    p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN,
  };
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(1) : value.toFixed(0));

export function formatRows(rows: StatRow[]): string {
  const header = ['call', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'errors'];
  const lines = rows.map((row) => [row.type, String(row.count), row.perSecond.toFixed(1), ms(row.p50), ms(row.p95), ms(row.p99), ms(row.max), String(row.errors)]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  return [header, ...lines].map((line) => line.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')).join('\n');
}
