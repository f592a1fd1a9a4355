import { describe, expect, it } from 'vitest';
import { fairQueue, QueueFull } from '../../src/server/lib/fair-queue.ts';

/** A task the test ends by hand, so the order is the queue's, not the machine's. */
function heldTask(name: string, started: string[]) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => { finish = resolve; });
  return { task: async () => { started.push(name); await done; return name; }, finish: () => finish() };
}

describe('the fair queue', () => {
  it('runs at most its concurrency, and gives the next place to the key whose turn it is', async () => {
    const queue = fairQueue({ concurrency: 2, maxWaitingPerKey: 10 });
    const started: string[] = [];
    const flood = Array.from({ length: 6 }, (_, index) => heldTask(`a${index}`, started));
    const floodDone = flood.map((held) => queue.run('a', held.task));
    const other = heldTask('b0', started);
    const otherDone = queue.run('b', other.task);
    await Promise.resolve();
    expect(started).toEqual(['a0', 'a1']);
    expect(queue.load()).toEqual({ running: 2, waiting: { a: 4, b: 1 } });
    flood[0]!.finish();
    await floodDone[0];
    await new Promise((resolve) => setImmediate(resolve));
    // 'a' had its turn when 'b' arrived; the freed place is b's
    expect(started).toEqual(['a0', 'a1', 'b0']);
    other.finish();
    expect(await otherDone).toBe('b0');
    for (const held of flood) held.finish();
    expect(await Promise.all(floodDone)).toEqual(flood.map((_, index) => `a${index}`));
    expect(queue.load()).toEqual({ running: 0, waiting: {} });
  });

  it('refuses a key more waiting tasks than its share, and keeps serving the others', async () => {
    const queue = fairQueue({ concurrency: 1, maxWaitingPerKey: 2 });
    const started: string[] = [];
    const held = Array.from({ length: 3 }, (_, index) => heldTask(`a${index}`, started));
    const accepted = held.map((item) => queue.run('a', item.task));
    await expect(queue.run('a', async () => 'a3')).rejects.toBeInstanceOf(QueueFull);
    const other = queue.run('b', async () => 'b0');
    for (const item of held) item.finish();
    expect(await Promise.all([...accepted, other])).toEqual(['a0', 'a1', 'a2', 'b0']);
  });

  it('passes a failure to its caller and frees the place', async () => {
    const queue = fairQueue({ concurrency: 1, maxWaitingPerKey: 5 });
    await expect(queue.run('a', async () => { throw new Error('hash failed'); })).rejects.toThrow('hash failed');
    expect(await queue.run('a', async () => 'next')).toBe('next');
  });
});
