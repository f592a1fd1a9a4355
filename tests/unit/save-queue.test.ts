import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The save queue's states, without a browser: its one dependency, the answers API, is
 * replaced; timers are Vitest's; window and sessionStorage are the smallest stand-ins.
 */
const saveAnswers = vi.fn();
vi.mock('../../src/client/session/api/answers-api.ts', () => ({
  saveAnswers: (...args: unknown[]) => saveAnswers(...args),
  saveAnswersAsPageCloses: vi.fn(),
}));

const storage = new Map<string, string>();
vi.stubGlobal('sessionStorage', {
  getItem: (key: string) => storage.get(key) ?? null,
  setItem: (key: string, value: string) => void storage.set(key, value),
  removeItem: (key: string) => void storage.delete(key),
});
vi.stubGlobal('window', {
  setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
  clearTimeout: (id: number) => clearTimeout(id),
  addEventListener: () => {},
});
vi.stubGlobal('document', { addEventListener: () => {}, visibilityState: 'visible' });

const { saveQueue, flush } = await import('../../src/client/session/save-queue.ts');
const { answersStore } = await import('../../src/client/session/answers-store.ts');
const { ServerError, UnauthorizedError } = await import('../../src/client/lib/api-errors.ts');

type Sent = [Record<string, string | boolean>, Record<string, number>];
const sent = (call: number) => saveAnswers.mock.calls[call] as Sent;
const answered = (stale: Record<string, string | boolean> = {}) => Promise.resolve({ message: 'Saved.', saved: 1, stale });

let owners = 0;
beforeEach(() => {
  vi.useFakeTimers();
  saveAnswers.mockReset();
  storage.clear();
  saveQueue.setOwner(`applicant${++owners}@example.org`);
});
afterEach(() => {
  saveQueue.setOwner(null);
  vi.useRealTimers();
});

describe('the save queue', () => {
  it('saves a moment after typing stops, each key with the time it changed, then reads saved', async () => {
    saveAnswers.mockImplementation(() => answered());
    saveQueue.enqueue({ first_name: 'A' });
    saveQueue.enqueue({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(saveQueue.state()).toBe('pending');
    expect(saveAnswers).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1500);
    expect(saveAnswers).toHaveBeenCalledTimes(1);
    const [answers, clocks] = sent(0);
    expect(answers).toEqual({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(clocks.last_name).toBeGreaterThan(clocks.first_name! - 1); // both from the second change, never equal to an earlier one
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
    answersStore.replace({ first_name: 'Ada' });
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

  it('picks up what an earlier visit of the tab left unsaved, with its clocks, and ignores a save answered after the owner changed', async () => {
    const owner = saveQueue.owner()!;
    storage.set(`app:unsaved:${owner}`, JSON.stringify({ answers: { first_name: 'Left' }, clocks: { first_name: 1234 } }));
    saveQueue.setOwner(null);
    saveAnswers.mockImplementation(() => answered());
    saveQueue.setOwner(owner);
    expect(saveQueue.unsaved()).toEqual({ first_name: 'Left' });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent(0)).toEqual([{ first_name: 'Left' }, { first_name: 1234 }]);

    let finish!: () => void;
    saveAnswers.mockImplementationOnce(() => new Promise((resolve) => { finish = () => resolve({ message: 'Saved.', saved: 1, stale: {} }); }));
    saveQueue.enqueue({ last_name: 'Late' });
    const late = flush();
    await vi.advanceTimersByTimeAsync(0);
    saveQueue.setOwner('someone-else@example.org');
    saveQueue.enqueue({ last_name: 'Theirs' });
    finish();
    await late;
    expect(saveQueue.unsaved()).toEqual({ last_name: 'Theirs' });
  });
});
