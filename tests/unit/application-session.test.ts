// @vitest-environment jsdom
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../src/client/session/api/session-api.ts';
import { createApplicationSession, identityKey, type SessionApi, type SessionNotice } from '../../src/client/session/application-session.ts';
import { ANONYMOUS_KEEP_MS } from '../../src/client/session/carried-answers.ts';
import { memoryLocks, memoryStorage } from '../helpers/memory-browser-storage.ts';

/**
 * The application session per identity, without a server: its API is handed in, the
 * browser's storage and locks are in memory, timers are Vitest's. Making a session has no
 * effects; `start()` connects it and what it returns disconnects it.
 */
const saveAnswers = vi.fn();
const fetchPrefill = vi.fn();
const fetchProfile = vi.fn();
const fetchAddAnother = vi.fn();
const fetchTabs = vi.fn();
const api: SessionApi = {
  saveAnswers: (...args) => saveAnswers(...args),
  saveAnswersAsPageCloses: vi.fn(),
  fetchPrefill: (token) => fetchPrefill(token),
  fetchProfile: () => fetchProfile(),
  fetchAddAnother: () => fetchAddAnother(),
  fetchTabs: () => fetchTabs(),
};
const answered = () => Promise.resolve({ message: 'Saved.', saved: 1, stale: {}, stale_clock: {} });

const saveQueue = { key: randomBytes(32).toString('base64url'), tag: 'ada-tag' };
const profile = (answer: Record<string, string>, answerClock: Record<string, number> = {}) => ({
  username: 'ada@example.org', answer, answer_clock: answerClock, save_queue: saveQueue, document_answer: {}, document_conversions: {},
}) as unknown as Profile;
const applicant = (answer: Record<string, string> = {}, answerClock: Record<string, number> = {}) =>
  ({ kind: 'applicant' as const, profile: profile(answer, answerClock), addAnother: {}, tabs: {} });

let device: { storage: ReturnType<typeof memoryStorage>; locks: ReturnType<typeof memoryLocks> };
const anonymous = () => createApplicationSession({ kind: 'anonymous', prefillToken: null }, api, device);

/** Until a check holds, running only timers due now (Web Crypto answers on the event loop). */
async function eventually(check: () => void): Promise<void> {
  for (let turn = 0; turn < 500; turn++) {
    try {
      check();
      return;
    } catch {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(0);
    }
  }
  check();
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  saveAnswers.mockReset().mockImplementation(answered);
  fetchPrefill.mockReset();
  device = { storage: memoryStorage(), locks: memoryLocks() };
});
afterEach(() => vi.useRealTimers());

describe('an anonymous visitor', () => {
  it('keeps the answers in the browser, so a page opened after the tab closed shows them', async () => {
    const first = anonymous();
    const stop = first.start();
    first.answers.change({ first_name: 'Ada' });
    await vi.advanceTimersByTimeAsync(200);
    stop();
    expect(anonymous().answers.get().first_name).toBe('Ada');
    expect(saveAnswers).not.toHaveBeenCalled();
  });

  it('merges what two tabs typed, key by key, and forgets answers nobody came back to in two weeks', async () => {
    const one = anonymous();
    const two = anonymous();
    const stopOne = one.start();
    const stopTwo = two.start();
    one.answers.change({ first_name: 'Ada' });
    await vi.advanceTimersByTimeAsync(200);
    two.answers.change({ last_name: 'Lovelace' }); // this tab never showed Ada
    await vi.advanceTimersByTimeAsync(200);
    stopOne();
    stopTwo();
    expect(anonymous().answers.get()).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
    vi.setSystemTime(Date.now() + ANONYMOUS_KEEP_MS + 1);
    expect(anonymous().answers.get()).toEqual({});
  });

  it('keeps the last keystrokes when the session stops within the pause', () => {
    const session = anonymous();
    const stop = session.start();
    session.answers.change({ last_name: 'Lovelace' });
    stop();
    expect(anonymous().answers.get().last_name).toBe('Lovelace');
  });

  it('fills empty answers from a prefill link, never over what was typed', async () => {
    fetchPrefill.mockResolvedValue({ answer: { first_name: 'Staff', last_name: 'Prefilled' } });
    device.storage.setItem('app:anonymous-answers', JSON.stringify({ at: Date.now(), answers: { first_name: 'Typed' } }));
    const session = createApplicationSession({ kind: 'anonymous', prefillToken: 'abc' }, api, device);
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchPrefill).toHaveBeenCalledWith('abc');
    expect(session.answers.get()).toMatchObject({ first_name: 'Typed', last_name: 'Prefilled' });
    expect(device.storage.getItem('app:prefill-token')).toBe('abc');
  });
});

describe('an applicant', () => {
  it('shows and saves what a closed page of the account left unacknowledged once started, and reads saved only then', async () => {
    const closed = createApplicationSession(applicant({ city: 'Old' }), api, device);
    const stopClosed = closed.start();
    await eventually(() => expect(closed.saveQueue?.state()).toBe('saved'));
    saveAnswers.mockImplementationOnce(() => Promise.reject(new TypeError('offline')));
    closed.answers.change({ city: 'Left' });
    await closed.flush();
    stopClosed();
    await eventually(() => expect(device.locks.held()).toEqual([]));

    saveAnswers.mockReset().mockImplementation(answered);
    const session = createApplicationSession(applicant({ city: 'Old', first_name: 'Ada' }), api, device);
    expect(session.answers.get()).toMatchObject({ city: 'Old' }); // made, not started: no effects
    session.start();
    expect(session.saveQueue?.state()).toBe('restoring');
    await eventually(() => expect(session.saveQueue?.state()).toBe('saved'));
    expect(session.answers.get()).toMatchObject({ city: 'Left', first_name: 'Ada' });
    expect(saveAnswers).toHaveBeenCalledTimes(1);
    expect(saveAnswers.mock.calls[0]![0]).toEqual({ city: 'Left' });
  });

  it('takes answers typed before signing up into keys still empty, saves them, and forgets them in the browser', async () => {
    device.storage.setItem('app:anonymous-answers', JSON.stringify({ at: Date.now(), answers: { first_name: 'Anon', last_name: 'Lovelace' } }));
    const session = createApplicationSession(applicant({ first_name: 'Ada' }), api, device);
    const stop = session.start();
    stop(); // React's strict mode starts, stops and starts again
    session.start();
    expect(session.answers.get()).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
    await eventually(() => expect(session.saveQueue?.state()).not.toBe('restoring'));
    await session.flush();
    expect(saveAnswers).toHaveBeenCalledTimes(1);
    expect(saveAnswers.mock.calls[0]![0]).toEqual({ last_name: 'Lovelace' });
    expect(device.storage.getItem('app:anonymous-answers')).toBeNull();
  });

  it('saves the applicant\'s changes a moment after typing stops, and nothing once stopped', async () => {
    const session = createApplicationSession(applicant(), api, device);
    const stop = session.start();
    await eventually(() => expect(session.saveQueue?.state()).toBe('saved'));
    session.answers.change({ first_name: 'Ada' });
    await vi.advanceTimersByTimeAsync(1500);
    expect(saveAnswers).toHaveBeenCalledTimes(1);
    stop();
    session.answers.change({ first_name: 'Grace' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(saveAnswers).toHaveBeenCalledTimes(1);
  });

  it('shows, when it comes back into view, what another device saved since, but leaves what it has not saved yet as typed', async () => {
    const session = createApplicationSession(applicant({ honors_name: 'Honor Roll' }, { honors_name: 100 }), api, device);
    session.start();
    await eventually(() => expect(session.saveQueue?.state()).toBe('saved'));
    const notices: (SessionNotice | null)[] = [];
    session.notices.subscribe(() => notices.push(session.notices.get()));
    saveAnswers.mockImplementation(() => new Promise(() => {})); // this page's save is still on its way
    session.answers.change({ city: 'Typed here' });
    fetchProfile.mockResolvedValue(profile(
      { honors_name: 'Honor Roll', honors_2_name: 'Eagle Scout', city: 'Saved elsewhere' },
      { honors_name: 100, honors_2_name: 200, city: 300 },
    ));
    fetchAddAnother.mockResolvedValue({ add_honor: 3 });
    fetchTabs.mockResolvedValue({});
    document.dispatchEvent(new Event('visibilitychange'));
    await eventually(() => expect(session.answers.getExtras().addAnother.add_honor).toBe(3));
    expect(session.answers.get()).toMatchObject({ honors_2_name: 'Eagle Scout', city: 'Typed here' });
    expect(session.saveQueue?.seenClock('honors_2_name')).toBe(200);
    expect(notices.at(-1)).toMatchObject({ kind: 'refreshed', refreshed: { keys: ['honors_2_name'], lists: ['add_honor'] } });
  });

  it('commits what the page holds uncommitted before the last save of a hidden page, keeping a choice it may not make unasked', async () => {
    const session = createApplicationSession(applicant(), api, device);
    session.start();
    await eventually(() => expect(session.saveQueue?.state()).toBe('saved'));
    const held: number[] = [];
    session.uncommitted.held.subscribe(() => held.push(session.uncommitted.held.get().size));
    session.uncommitted.hold('hs_name', () => {
      session.answers.change({ hs_name: 'Typed High' });
      return true;
    });
    session.uncommitted.hold('country', () => false); // would remove answers: asked when the list is left
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    try {
      document.dispatchEvent(new Event('visibilitychange'));
    } finally {
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    }
    expect(api.saveAnswersAsPageCloses).toHaveBeenCalledWith({ hs_name: 'Typed High' }, expect.anything(), expect.anything());
    expect([...session.uncommitted.held.get()]).toEqual(['country']);
    expect(held).toEqual([1, 2, 1]);
  });

  it('follows each identity with its own session: another applicant or the service view shares nothing', () => {
    const ada = createApplicationSession(applicant({ first_name: 'Ada' }), api, device);
    const service = createApplicationSession({ kind: 'service', view: undefined }, api, device);
    ada.answers.change({ first_name: 'Changed' });
    expect(service.answers.get()).toEqual({});
    expect(service.saveQueue).toBeNull();
    expect(identityKey(applicant())).toBe('applicant:ada@example.org');
    expect(identityKey({ kind: 'service', view: undefined })).toBe('service');
  });
});
