/** A key that already has as many tasks waiting as it may. */
export class QueueFull extends Error {
  constructor(readonly key: string) {
    super(`too many tasks waiting for ${key}`);
  }
}

/**
 * Runs at most `concurrency` tasks at once, and when a place frees up, the keys (client
 * addresses) take turns: the place goes to the waiting key with the fewest tasks running,
 * the longest-waiting of those first. A flood from one address waits behind itself, not in
 * front of everyone else. A key may have at most `maxWaitingPerKey` tasks waiting; more are refused.
 */
export function fairQueue(options: { concurrency: number; maxWaitingPerKey: number }) {
  // a Map keeps insertion order: a served key goes to the back
  const waiting = new Map<string, (() => void)[]>();
  const runningOf = new Map<string, number>();
  let running = 0;

  const nextKey = (): string | undefined => {
    let chosen: string | undefined;
    for (const key of waiting.keys()) {
      if (chosen === undefined || (runningOf.get(key) ?? 0) < (runningOf.get(chosen) ?? 0)) chosen = key;
      if (!runningOf.get(chosen)) break; // nothing running: no one comes before it
    }
    return chosen;
  };

  const startNext = () => {
    while (running < options.concurrency) {
      const key = nextKey();
      if (key === undefined) return;
      const tasks = waiting.get(key)!;
      const start = tasks.shift()!;
      waiting.delete(key);
      if (tasks.length) waiting.set(key, tasks);
      running++;
      runningOf.set(key, (runningOf.get(key) ?? 0) + 1);
      start();
    }
  };

  const finished = (key: string) => {
    running--;
    const left = (runningOf.get(key) ?? 1) - 1;
    if (left) runningOf.set(key, left);
    else runningOf.delete(key);
    startNext();
  };

  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const tasks = waiting.get(key) ?? [];
      if (tasks.length >= options.maxWaitingPerKey) return Promise.reject(new QueueFull(key));
      return new Promise<T>((resolve, reject) => {
        tasks.push(() => {
          Promise.resolve().then(task).then(resolve, reject).finally(() => finished(key));
        });
        if (!waiting.has(key)) waiting.set(key, tasks);
        startNext();
      });
    },
    /** tasks running, and waiting per key (for a test or a health figure) */
    load: () => ({ running, waiting: Object.fromEntries([...waiting].map(([key, tasks]) => [key, tasks.length])) }),
  };
}
