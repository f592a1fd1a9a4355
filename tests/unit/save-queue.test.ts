import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSaveQueue, type Overruled, type SaveQueue } from '../../src/client/session/save-queue.ts';
import { createAnswersStore } from '../../src/client/session/answers-store.ts';
import { openUnsavedStore } from '../../src/client/session/unsaved-answers-store.ts';
import { ServerError, UnauthorizedError } from '../../src/client/lib/api-errors.ts';
import type { SaveBasis } from '../../src/client/session/api/answers-api.ts';
import { memoryLocks, memoryStorage } from '../helpers/memory-browser-storage.ts';

/**
 * The save queue's states, without a browser: the queue is made with its dependencies (the
 * answers API, the browser's storage and locks in memory, Node's Web Crypto, where values
 * are shown) handed in; the autosave and retry timers are Vitest's.
 */
const saveAnswers = vi.fn();
const api = { saveAnswers: (...args: unknown[]) => saveAnswers(...args), saveAnswersAsPageCloses: vi.fn() };

type Sent = [Record<string, string | boolean>, Record<string, number>, SaveBasis];
const sent = (call: number) => saveAnswers.mock.calls[call] as Sent;
const answered = (stale: Record<string, string | boolean> = {}, staleClock: Record<string, number> = {}) =>
  Promise.resolve({ message: 'Saved.', saved: 1, stale, stale_clock: staleClock });

const account = { key: randomBytes(32).toString('base64url'), tag: 'account-tag-one' };
let storage: ReturnType<typeof memoryStorage>;
let locks: ReturnType<typeof memoryLocks>;
let answersStore: ReturnType<typeof createAnswersStore>;
let overruled: Overruled[][];
let pages = 0;
let saveQueue: SaveQueue;

/** A page of the account: its own writer id, what it saw, its queue running. */
function openPage(seen: Record<string, number> = {}, keys = account): SaveQueue {
  const writer = `page-${++pages}-writer`;
  const queue = createSaveQueue({
    api, writer, seen,
    openStore: () => openUnsavedStore({ storage, locks, key: keys.key, tag: keys.tag, writer }),
    showFromServer: (values) => answersStore.applyFromServer(values),
    onOverruled: (list) => void overruled.push(list),
  });
  queue.resume();
  return queue;
}

/**
 * Until a check holds: Web Crypto and the locks answer on the event loop, not on the fake
 * clock, which this never moves forward (vi.waitFor would): it runs only what is due now.
 */
async function eventually(check: () => void): Promise<void> {
  for (let turn = 0; turn < 500; turn++) {
    try {
      check();
      return;
    } catch {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(0); // what is due now (a save the queue scheduled at once), no later
    }
  }
  check();
}
const restored = (queue: SaveQueue) => eventually(() => expect(queue.state()).not.toBe('restoring'));
const flush = () => saveQueue.flush();
const plainRecords = () => storage.entries().map(([, value]) => value).join();

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  saveAnswers.mockReset();
  storage = memoryStorage();
  locks = memoryLocks();
  overruled = [];
  answersStore = createAnswersStore({}, { addAnother: {}, tabs: {} });
  saveQueue = openPage();
  await restored(saveQueue);
});
afterEach(() => {
  saveQueue.pause();
  vi.useRealTimers();
});

describe('the save queue', () => {
  it('says nothing of "saved" until it has looked for what earlier pages left, then saves a moment after typing stops', async () => {
    const page = openPage();
    expect(page.state()).toBe('restoring');
    await restored(page);
    expect(page.state()).toBe('saved');
    page.pause();

    saveAnswers.mockImplementation(() => answered());
    vi.setSystemTime(new Date('2026-11-24T10:00:00Z'));
    saveQueue.enqueue({ first_name: 'A' });
    await vi.advanceTimersByTimeAsync(400);
    const secondChange = Date.now();
    saveQueue.enqueue({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(saveQueue.state()).toBe('pending');
    expect(saveAnswers).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1500);
    expect(saveAnswers).toHaveBeenCalledTimes(1);
    const [answers, clocks, basis] = sent(0);
    expect(answers).toEqual({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(clocks.first_name).toBe(secondChange);
    expect(clocks.last_name).toBeGreaterThan(secondChange);
    // what the page saw of each key (nothing: a new application), and which page sends it
    expect(basis).toEqual({ writer: saveQueue.writer, seen: { first_name: 0, last_name: 0 } });
    await eventually(() => expect(saveQueue.state()).toBe('saved'));
    await eventually(() => expect(storage.length).toBe(0)); // nothing left unacknowledged
  });

  it('sends the stored change each key showed, and stamps a change later than it even when this clock is behind', async () => {
    saveQueue.pause();
    const laptopClock = Date.parse('2026-11-24T10:00:00Z');
    saveQueue = openPage({ honors_2_name: laptopClock });
    await restored(saveQueue);
    saveAnswers.mockImplementation(() => answered());
    vi.setSystemTime(laptopClock - 60_000); // this phone's clock runs a minute behind the laptop's
    saveQueue.enqueue({ honors_2_name: 'Debate Club' });
    await flush();
    expect(sent(0)[1].honors_2_name).toBe(laptopClock + 1);
    expect(sent(0)[2].seen).toEqual({ honors_2_name: laptopClock });
  });

  it('keeps a key changed while its save was on the way, and sends it again with its newer clock', async () => {
    let finish!: () => void;
    saveAnswers.mockImplementationOnce(() => new Promise((resolve) => { finish = () => resolve({ message: 'Saved.', saved: 1, stale: {}, stale_clock: {} }); }));
    saveAnswers.mockImplementation(() => answered());
    saveQueue.enqueue({ first_name: 'Ada' });
    const first = flush();
    await vi.advanceTimersByTimeAsync(0);
    saveQueue.enqueue({ first_name: 'Grace' });
    finish();
    await first;
    await flush();
    expect(sent(1)[0]).toEqual({ first_name: 'Grace' });
    expect(sent(1)[1].first_name).toBeGreaterThan(sent(0)[1].first_name!);
    // its reply had not come when Grace was typed: still judged on the view Ada was typed on, as this page's own
    expect(sent(1)[2]).toEqual({ writer: saveQueue.writer, seen: { first_name: 0 } });
    expect(saveQueue.state()).toBe('saved');
  });

  it('shows what the server holds for a key another device saved first, says what was typed, and bases the next change on it', async () => {
    answersStore.applyFromServer({ honors_2_name: 'Debate Club' });
    saveAnswers.mockImplementationOnce(() => answered({ honors_2_name: 'Eagle Scout' }, { honors_2_name: 5000 }));
    saveQueue.enqueue({ honors_2_name: 'Debate Club' });
    await flush();
    expect(answersStore.get().honors_2_name).toBe('Eagle Scout');
    expect(overruled).toEqual([[{ key: 'honors_2_name', typed: 'Debate Club', stored: 'Eagle Scout' }]]);
    expect(saveQueue.state()).toBe('saved');

    saveAnswers.mockImplementation(() => answered());
    saveQueue.enqueue({ honors_2_name: 'Eagle Scout, Troop 7' });
    await flush();
    expect(sent(1)[2].seen).toEqual({ honors_2_name: 5000 });
  });

  it('says nothing when what another page stored is what was typed here (a repeat)', async () => {
    saveAnswers.mockImplementationOnce(() => answered({ city: 'Madison' }, { city: 5000 }));
    saveQueue.enqueue({ city: 'Madison' });
    await flush();
    expect(overruled).toEqual([]);
    expect(answersStore.get().city).toBe('Madison');
  });

  it('goes offline on a network failure and retries with growing pauses, keeping the answers encrypted in the browser', async () => {
    saveAnswers.mockImplementationOnce(() => Promise.reject(new ServerError('x', 0, 'NETWORK')));
    saveAnswers.mockImplementationOnce(() => Promise.reject(new ServerError('x', 0, 'NETWORK')));
    saveAnswers.mockImplementation(() => answered());
    saveQueue.enqueue({ city: 'Outage' });
    await flush();
    expect(saveQueue.state()).toBe('offline');
    await eventually(() => expect(storage.length).toBe(1));
    expect(plainRecords()).not.toContain('Outage');
    await vi.advanceTimersByTimeAsync(1000);
    expect(saveAnswers).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(saveAnswers).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(saveAnswers).toHaveBeenCalledTimes(3);
    await eventually(() => expect(saveQueue.state()).toBe('saved'));
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
    expect(saveQueue.hasUnacknowledged()).toBe(true);

    saveAnswers.mockImplementationOnce(() => Promise.reject(new ServerError('done', 409, 'SUBMITTED')));
    await flush();
    expect(saveQueue.state()).toBe('submitted');
    expect(saveQueue.hasUnacknowledged()).toBe(false);
    await eventually(() => expect(storage.length).toBe(0));
  });
});

describe('answers a closed page left unacknowledged', () => {
  /** A page that typed while offline and was closed (its lock goes with it). */
  async function closedOfflinePage(answers: Record<string, string>, seen: Record<string, number> = {}) {
    const page = openPage(seen);
    await restored(page);
    saveAnswers.mockImplementationOnce(() => Promise.reject(new ServerError('x', 0, 'NETWORK')));
    page.enqueue(answers);
    await page.flush();
    page.pause();
    await eventually(() => expect(locks.held()).not.toContain(`app-unsaved-page:${page.writer}`));
    return page.writer;
  }

  it('are found by the next page of the account, shown, and sent first as the page that typed them', async () => {
    const gone = await closedOfflinePage({ last_name: 'Lovelace' }, { last_name: 0 });
    saveAnswers.mockReset().mockImplementation(() => answered());
    saveQueue.pause();
    saveQueue = openPage();
    expect(saveQueue.state()).toBe('restoring');
    await eventually(() => expect(answersStore.get().last_name).toBe('Lovelace'));
    await eventually(() => expect(saveAnswers).toHaveBeenCalledTimes(1));
    expect(sent(0)[0]).toEqual({ last_name: 'Lovelace' });
    expect(sent(0)[2]).toEqual({ writer: gone, seen: { last_name: 0 } });
    await eventually(() => expect(saveQueue.state()).toBe('saved'));
    expect(storage.length).toBe(0);
  });

  it('are not taken from a page that is still open, nor read by another account', async () => {
    const open = openPage();
    await restored(open);
    saveAnswers.mockImplementationOnce(() => Promise.reject(new ServerError('x', 0, 'NETWORK')));
    open.enqueue({ city: 'Still typing' });
    await open.flush();
    await eventually(() => expect(storage.length).toBe(1));
    saveAnswers.mockReset().mockImplementation(() => answered());

    const sibling = openPage();
    await restored(sibling);
    expect(sibling.state()).toBe('saved');
    const stranger = openPage({}, { key: randomBytes(32).toString('base64url'), tag: 'account-tag-two' });
    await restored(stranger);
    expect(saveAnswers).not.toHaveBeenCalled();
    expect(answersStore.get().city).toBeUndefined();
    sibling.pause();
    stranger.pause();
    open.pause();
  });

  it('stay kept when the page that took them goes before they were acknowledged', async () => {
    await closedOfflinePage({ city: 'Outage' });
    saveQueue.pause();
    saveAnswers.mockReset().mockImplementation(() => Promise.reject(new ServerError('x', 0, 'NETWORK')));
    const second = openPage();
    await eventually(() => expect(second.state()).toBe('offline'));
    second.pause();
    saveAnswers.mockReset().mockImplementation(() => answered());
    saveQueue = openPage();
    await eventually(() => expect(saveAnswers).toHaveBeenCalledTimes(1));
    expect(sent(0)[0]).toEqual({ city: 'Outage' });
  });

  it('ignore a save answered after the session ended, which then sends nothing by itself', async () => {
    let finish!: () => void;
    saveAnswers.mockImplementationOnce(() => new Promise((resolve) => { finish = () => resolve({ message: 'Saved.', saved: 1, stale: { last_name: 'Server' }, stale_clock: { last_name: 9 } }); }));
    saveQueue.enqueue({ last_name: 'Late' });
    const late = flush();
    await vi.advanceTimersByTimeAsync(0);
    saveQueue.pause(); // the session ended (a logout, a 401) while the save was on the way
    finish();
    await late;
    expect(answersStore.get().last_name).toBeUndefined(); // a paused queue shows nothing more
    expect(saveQueue.hasUnacknowledged()).toBe(true); // still to save at the next login
    await vi.advanceTimersByTimeAsync(60_000);
    expect(saveAnswers).toHaveBeenCalledTimes(1);
  });
});
