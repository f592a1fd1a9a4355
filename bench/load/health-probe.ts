import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

export interface HealthGaps {
  probes: number;
  failed: number;
  /** the longest time between two answers of /healthz: what the server's event loop (or its database) lost */
  worstGapMs: number;
  slowestMs: number;
  p50Ms: number;
  p99Ms: number;
  /** answers that took more than 50 ms */
  over50Ms: number;
  /** when the slowest answer was asked, in seconds from the probe's start */
  slowestAtS: number;
}

/**
 * Asks GET /healthz (which asks the database) every 20 ms, one at a time on a connection of
 * its own, while a load runs; the worst gap between two answers is how long the server
 * could not answer it (within 50 ms at 1,000 in flight). It runs in a thread of
 * its own (health-probe-thread.mjs): in the load generator's event loop, 1,000 connections'
 * answers delayed the probe itself by hundreds of milliseconds, and that was counted
 * against the server.
 */
export function probeHealth(url: string, everyMs = 20): { stop(): Promise<HealthGaps> } {
  const worker = new Worker(new URL('./health-probe-thread.mjs', import.meta.url), { workerData: { url, everyMs } });
  const result = once(worker, 'message') as Promise<[HealthGaps]>;
  return {
    async stop() {
      worker.postMessage('stop');
      const [gaps] = await result;
      await worker.terminate();
      return gaps;
    },
  };
}
