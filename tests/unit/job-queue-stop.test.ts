import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobRow } from '../../src/server/db/repositories/job-repository.ts';
import type { Database } from '../../src/server/db/tables.ts';

/**
 * The queue's stop against a poll whose claim is still on its way to the database: the
 * claim's answer is held by the test, so the stop always begins in the middle of it. (The
 * database's own behaviour is tried in tests/server/job-queue.test.ts; here only the order.)
 */
const repository = vi.hoisted(() => ({
  claims: [] as ((job: unknown) => void)[],
  calls: [] as string[],
}));

vi.mock('../../src/server/db/repositories/job-repository.ts', () => ({
  claimJob: vi.fn(() => new Promise((resolve) => repository.claims.push(resolve))),
  retryJob: vi.fn(async (_db: unknown, id: string, error: string, delayMs: number, options: object) => {
    await Promise.resolve();
    repository.calls.push(`retry ${id} "${error}" after ${delayMs} ms ${JSON.stringify(options)}`);
  }),
  finishJob: vi.fn(async (_db: unknown, id: string) => void repository.calls.push(`finish ${id}`)),
  failJob: vi.fn(async (_db: unknown, id: string) => void repository.calls.push(`fail ${id}`)),
  extendLock: vi.fn(async () => {}),
  insertJob: vi.fn(async () => '1'),
  insertRunningJob: vi.fn(),
  cancelQueuedJob: vi.fn(),
}));

const { JobQueue } = await import('../../src/server/jobs/job-queue.ts');

const quiet = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => quiet } as unknown as FastifyBaseLogger;
const job = { id: '7', kind: 'convert', lane: 'word', attempts: 1, max_attempts: 3, payload: {}, revision: 2 } as unknown as JobRow;

describe('the job queue\'s stop', () => {
  beforeEach(() => {
    repository.claims.length = 0;
    repository.calls.length = 0;
  });

  it('gives back a job claimed as it stops, untried and at once, and ends only after that', async () => {
    const queue = new JobQueue({} as Kysely<Database>, quiet, { lanes: { word: 1 }, pollMs: 60_000, lockMs: 60_000 });
    const run = vi.fn(async () => {});
    queue.define('convert', { lane: 'word', maxAttempts: 3, run, onGiveUp: async () => {} });
    queue.start();
    await vi.waitFor(() => expect(repository.claims).toHaveLength(1));

    let stopped = false;
    const stop = queue.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false); // the claim is still on its way
    repository.claims[0]!(job);
    await stop;

    expect(run).not.toHaveBeenCalled();
    expect(repository.calls).toEqual(['retry 7 "the server is stopping" after 0 ms {"giveBackAttempt":true,"revision":2}']);
  });

  it('waits for a job that started while it was waiting, before the database may close', async () => {
    const queue = new JobQueue({} as Kysely<Database>, quiet, { lanes: { word: 1 }, pollMs: 60_000, lockMs: 60_000 });
    let release: () => void = () => {};
    const run = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    queue.define('convert', { lane: 'word', maxAttempts: 3, run, onGiveUp: async () => {} });
    queue.start();
    await vi.waitFor(() => expect(repository.claims).toHaveLength(1));
    repository.claims[0]!(job);
    await vi.waitFor(() => expect(run).toHaveBeenCalledTimes(1));

    let stopped = false;
    const stop = queue.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release(); // ends without heeding the stop: its end is recorded before the stop returns
    await stop;
    expect(repository.calls).toEqual(['finish 7']);
  });
});
