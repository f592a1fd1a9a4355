import { readdirSync, readFileSync } from 'node:fs';

interface Snapshot {
  /** CPU seconds (user + system) by pid */
  processes: Map<number, { name: string; seconds: number }>;
  /** busy and available CPU seconds of all cores together, and the kernel's interrupt work (loopback networking) */
  busy: number;
  total: number;
  interrupts: number;
}

function snapshot(): Snapshot {
  const processes = new Map<number, { name: string; seconds: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      processes.set(Number(entry), { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), seconds: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      // the process ended meanwhile
    }
  }
  const values = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((sum, value) => sum + value, 0) / 100;
  return { processes, busy: total - ((values[3] ?? 0) + (values[4] ?? 0)) / 100, total, interrupts: ((values[5] ?? 0) + (values[6] ?? 0)) / 100 };
}

interface Shares {
  total: number;
  busy: number;
  interrupts: number;
  server: number;
  postgres: number;
  generator: number;
}

function shares(before: Snapshot, now: Snapshot, serverPid: number): Shares {
  const result = { total: now.total - before.total, busy: now.busy - before.busy, interrupts: now.interrupts - before.interrupts, server: 0, postgres: 0, generator: 0 };
  for (const [pid, { name, seconds }] of now.processes) {
    const used = seconds - (before.processes.get(pid)?.seconds ?? 0);
    if (pid === serverPid) result.server += used;
    else if (name === 'postgres') result.postgres += used;
    else if (pid === process.pid) result.generator += used;
  }
  return result;
}

function describe(share: Shares): string {
  const pct = (value: number) => `${Math.round((value / share.total) * 100)}%`;
  const other = Math.max(0, share.busy - share.server - share.postgres - share.generator - share.interrupts);
  return `machine ${pct(share.busy)}: server ${pct(share.server)}, postgres ${pct(share.postgres)}, load generator ${pct(share.generator)}, ` +
    `kernel interrupts ${pct(share.interrupts)}, other ${pct(other)}`;
}

/**
 * Where the machine's CPU went, every 5 s, from /proc: the server process, PostgreSQL's
 * processes, this load generator, the kernel's interrupt work (mostly loopback TCP), and
 * everything else (other work on the machine). 100% is all cores. On a 2-core machine everything competes: a latency spike while "other"
 * is high is not the server's doing.
 */
export function cpuTimeline(serverPid: number): { stop(): { rows: string[]; whole: string } } {
  const buckets: Shares[] = [];
  let before = snapshot();
  const sample = () => {
    const now = snapshot();
    buckets.push(shares(before, now, serverPid));
    before = now;
  };
  const timer = setInterval(sample, 5000);
  return {
    stop() {
      clearInterval(timer);
      const rows = buckets.map(describe);
      sample(); // the last part bucket counts in the whole
      // summed per bucket: PostgreSQL backends that exit (the pool closes idle connections) still count
      const whole = buckets.reduce((sum, share) => ({
        total: sum.total + share.total, busy: sum.busy + share.busy, interrupts: sum.interrupts + share.interrupts, server: sum.server + share.server,
        postgres: sum.postgres + share.postgres, generator: sum.generator + share.generator,
      }));
      return { rows, whole: describe(whole) };
    },
  };
}
