import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSaveQueue, type SaveQueue } from '../../src/client/session/save-queue.ts';
import { createAnswersStore } from '../../src/client/session/answers-store.ts';
import { ServerError, UnauthorizedError } from '../../src/client/lib/api-errors.ts';

/**
 * The save queue's states, without a browser: the queue is made with its dependencies
 * (the answers API, the tab's storage, where newer values are shown) handed in; timers
 * are Vitest's.
 */
const saveAnswers = vi.fn();
const api = { saveAnswers: (...args: unknown[]) => saveAnswers(...args), saveAnswersAsPageCloses: vi.fn() };

const storage = new Map<string, string>();
const tabStorage = {
  getItem: (key: string) => storage.get(key) ?? null,
  setItem: (key: string, value: string) => void storage.set(key, value),
  removeItem: (key: string) => void storage.delete(key),
};

type Sent = [Record<string, string | boolean>, Record<string, number>];
const sent = (call: number) => saveAnswers.mock.calls[call] as Sent;
const answered = (stale: Record<string, string | boolean> = {}) => Promise.resolve({ message: 'Saved.', saved: 1, stale });

let owners = 0;
let answersStore: ReturnType<typeof createAnswersStore>;
let saveQueue: SaveQueue;
const makeQueue = (owner: string) => {
  const queue = createSaveQueue({ owner, api, storage: tabStorage, showFromServer: (values) => answersStore.applyFromServer(values) });
  queue.resume();
  return queue;
};
const flush = () => saveQueue.flush();

beforeEach(() => {
  vi.useFakeTimers();
  saveAnswers.mockReset();
  storage.clear();
  answersStore = createAnswersStore({}, { addAnother: {}, tabs: {} });
  saveQueue = makeQueue(`applicant${++owners}@example.org`);
});
afterEach(() => {
  saveQueue.pause();
  vi.useRealTimers();
});

describe('the save queue', () => {
  it('saves a moment after typing stops, each key with the time it changed, then reads saved', async () => {
    saveAnswers.mockImplementation(() => answered());
    vi.setSystemTime(new Date('2026-11-24T10:00:00Z'));
    const firstChange = Date.now();
    saveQueue.enqueue({ first_name: 'A' });
    await vi.advanceTimersByTimeAsync(400); // typing goes on: the fake clock moves
    const secondChange = Date.now();
    saveQueue.enqueue({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(saveQueue.state()).toBe('pending');
    expect(saveAnswers).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1500);
    expect(saveAnswers).toHaveBeenCalledTimes(1);
    const [answers, clocks] = sent(0);
    expect(answers).toEqual({ first_name: 'Ada', last_name: 'Lovelace' });
    // first_name carries the time of its latest change, not of its first
    expect(secondChange - firstChange).toBe(400);
    expect(clocks.first_name).toBe(secondChange);
    // last_name changed in the same moment; within it each key gets a clock of its own
    expect(clocks.last_name).toBeGreaterThan(secondChange);
    expect(clocks.last_name).toBeLessThan(secondChange + 400);
    expect(saveQueue.state()).toBe('saved');
    expect(storage.size).toBe(0); // nothing left unsaved in the tab
  });

  it('gives every change a newer clock than the one before, even within one millisecond', async () => {
    saveAnswers.mockImplementation(() => answered());
    vi.setSystemTime(new Date('2026-11-24T10:00:00Z'));
    saveQueue.enqueue({ first_name: 'A' });
    await flush();
    saveQueue.enqueue({ first_name: 'B' });
    await flush();
    expect(sent(1)[1].first_name).toBeGreaterThan(sent(0)[1].first_name!);
  });

  it('keeps a key changed while its save was on the way, and sends it again with its newer clock', async () => {
    let finish!: () => void;
    saveAnswers.mockImplementationOnce(() => new Promise((resolve) => { finish = () => resolve({ message: 'Saved.', saved: 1, stale: {} }); }));
    saveAnswers.mockImplementation(() => answered());
    saveQueue.enqueue({ first_name: 'Ada' });
    const first = flush();
    await vi.advanceTimersByTimeAsync(0);
    saveQueue.enqueue({ first_name: 'Grace' });
    finish();
    await first;
    expect(saveQueue.state()).toBe('pending');
    await flush();
    expect(sent(1)[0]).toEqual({ first_name: 'Grace' });
    expect(sent(1)[1].first_name).toBeGreaterThan(sent(0)[1].first_name!);
    expect(saveQueue.state()).toBe('saved');
  });

  it('shows what the server holds for a key a newer change (another tab) already wrote', async () => {
    answersStore.applyFromServer({ first_name: 'Ada' });
    saveAnswers.mockImplementation(() => answered({ first_name: 'Newer' }));
    saveQueue.enqueue({ first_name: 'Ada' });
    await flush();
    expect(answersStore.get().first_name).toBe('Newer');
    expect(saveQueue.state()).toBe('saved');
  });

  it('goes offline on a network failure and retries with growing pauses, keeping the answers in the tab', async () => {
    saveAnswers.mockImplementationOnce(() => Promise.reject(new ServerError('x', 0, 'NETWORK')));
    saveAnswers.mockImplementationOnce(() => Promise.reject(new ServerError('x', 0, 'NETWORK')));
    saveAnswers.mockImplementation(() => answered());
    saveQueue.enqueue({ city: 'Outage' });
    await flush();
    expect(saveQueue.state()).toBe('offline');
    expect([...storage.values()].join()).toContain('Outage');
    await vi.advanceTimersByTimeAsync(1000);
    expect(saveAnswers).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(saveAnswers).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(saveAnswers).toHaveBeenCalledTimes(3);
    expect(saveQueue.state()).toBe('saved');
    expect(sent(2)[1]).toEqual(sent(0)[1]); // a retry carries the clock of the change, not of the retry
  });

  it('reads failed on a refusal, logged out on 401 (answers kept), submitted on SUBMITTED (answers dropped)', async () => {
    saveAnswers.mockImplementationOnce(() => Promise.reject(new ServerError('no', 500, 'SERVER_ERROR')));
    saveQueue.enqueue({ city: 'A' });
    await flush();
    expect(saveQueue.state()).toBe('failed');

    saveAnswers.mockImplementationOnce(() => Promise.reject(new UnauthorizedError()));
    await flush();
    expect(saveQueue.state()).toBe('logged_out');
    expect(saveQueue.unsaved()).toEqual({ city: 'A' });

    saveAnswers.mockImplementationOnce(() => Promise.reject(new ServerError('done', 409, 'SUBMITTED')));
    await flush();
    expect(saveQueue.state()).toBe('submitted');
    expect(saveQueue.unsaved()).toEqual({});
  });

  it('picks up what an earlier visit of the tab left unsaved, with its clocks, and ignores a save answered after it was paused', async () => {
    const owner = saveQueue.owner;
    saveQueue.pause();
    storage.set(`app:unsaved:${owner}`, JSON.stringify({ answers: { first_name: 'Left' }, clocks: { first_name: 1234 } }));
    saveAnswers.mockImplementation(() => answered());
    saveQueue = makeQueue(owner);
    expect(saveQueue.unsaved()).toEqual({ first_name: 'Left' });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent(0)).toEqual([{ first_name: 'Left' }, { first_name: 1234 }]);

    let finish!: () => void;
    saveAnswers.mockImplementationOnce(() => new Promise((resolve) => { finish = () => resolve({ message: 'Saved.', saved: 1, stale: { last_name: 'Server' } }); }));
    saveQueue.enqueue({ last_name: 'Late' });
    const late = flush();
    await vi.advanceTimersByTimeAsync(0);
    saveQueue.pause(); // the session ended (a logout, a 401) while the save was on the way
    finish();
    await late;
    expect(saveQueue.unsaved()).toEqual({ last_name: 'Late' }); // still to save at the next login
    expect(answersStore.get().last_name).toBeUndefined(); // a paused queue shows nothing more
    await vi.advanceTimersByTimeAsync(60_000);
    expect(saveAnswers).toHaveBeenCalledTimes(2); // and sends nothing by itself
  });
});
