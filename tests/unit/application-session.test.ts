// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../src/client/session/api/session-api.ts';
import { createApplicationSession, identityKey, type SessionApi } from '../../src/client/session/application-session.ts';

/**
 * The application session per identity, without a server: its API is handed in, the tab's
 * storage is jsdom's sessionStorage, timers are Vitest's. Making a session has no effects;
 * `start()` connects it and what it returns disconnects it.
 */
const saveAnswers = vi.fn();
const fetchPrefill = vi.fn();
const api: SessionApi = {
  saveAnswers: (...args) => saveAnswers(...args),
  saveAnswersAsPageCloses: vi.fn(),
  fetchPrefill: (token) => fetchPrefill(token),
};
const answered = () => Promise.resolve({ message: 'Saved.', saved: 1, stale: {} });

const profile = (answer: Record<string, string>) => ({
  username: 'ada@example.org', answer, document_answer: {}, document_conversions: {},
}) as unknown as Profile;
const applicant = (answer: Record<string, string> = {}) => ({ kind: 'applicant' as const, profile: profile(answer), addAnother: {}, tabs: {} });

beforeEach(() => {
  vi.useFakeTimers();
  saveAnswers.mockReset().mockImplementation(answered);
  fetchPrefill.mockReset();
  sessionStorage.clear();
});
afterEach(() => vi.useRealTimers());

describe('an anonymous visitor', () => {
  it('keeps the answers in the tab, so a new session after a reload shows them; a fresh tab starts empty', async () => {
    const first = createApplicationSession({ kind: 'anonymous', prefillToken: null }, api, sessionStorage);
    const stop = first.start();
    first.answers.change({ first_name: 'Ada' });
    await vi.advanceTimersByTimeAsync(200);
    stop();
    const reloaded = createApplicationSession({ kind: 'anonymous', prefillToken: null }, api, sessionStorage);
    expect(reloaded.answers.get().first_name).toBe('Ada');
    expect(saveAnswers).not.toHaveBeenCalled();
    sessionStorage.clear(); // the tab closed
    expect(createApplicationSession({ kind: 'anonymous', prefillToken: null }, api, sessionStorage).answers.get()).toEqual({});
  });

  it('keeps the last keystrokes when the session stops within the pause', () => {
    const session = createApplicationSession({ kind: 'anonymous', prefillToken: null }, api, sessionStorage);
    const stop = session.start();
    session.answers.change({ last_name: 'Lovelace' });
    stop();
    expect(createApplicationSession({ kind: 'anonymous', prefillToken: null }, api, sessionStorage).answers.get().last_name).toBe('Lovelace');
  });

  it('fills empty answers from a prefill link, never over what was typed', async () => {
    fetchPrefill.mockResolvedValue({ answer: { first_name: 'Staff', last_name: 'Prefilled' } });
    sessionStorage.setItem('app:anonymous-answers', JSON.stringify({ first_name: 'Typed' }));
    const session = createApplicationSession({ kind: 'anonymous', prefillToken: 'abc' }, api, sessionStorage);
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchPrefill).toHaveBeenCalledWith('abc');
    expect(session.answers.get()).toMatchObject({ first_name: 'Typed', last_name: 'Prefilled' });
    expect(sessionStorage.getItem('app:prefill-token')).toBe('abc');
  });
});

describe('an applicant', () => {
  it('shows what a failed save left in the tab at once, and saves it once started', async () => {
    sessionStorage.setItem('app:unsaved:ada@example.org', JSON.stringify({ answers: { city: 'Left' }, clocks: { city: 5 } }));
    const session = createApplicationSession(applicant({ city: 'Old', first_name: 'Ada' }), api, sessionStorage);
    expect(session.answers.get()).toMatchObject({ city: 'Left', first_name: 'Ada' });
    expect(saveAnswers).not.toHaveBeenCalled(); // made, not started: no effects
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(saveAnswers).toHaveBeenCalledWith({ city: 'Left' }, { city: 5 });
    expect(session.saveQueue?.state()).toBe('saved');
  });

  it('takes answers typed before signing up into keys still empty, saves them, and forgets them in the tab', async () => {
    sessionStorage.setItem('app:anonymous-answers', JSON.stringify({ first_name: 'Anon', last_name: 'Lovelace' }));
    const session = createApplicationSession(applicant({ first_name: 'Ada' }), api, sessionStorage);
    const stop = session.start();
    stop(); // React's strict mode starts, stops and starts again
    session.start();
    expect(session.answers.get()).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
    await session.flush();
    expect(saveAnswers).toHaveBeenCalledTimes(1);
    expect(saveAnswers.mock.calls[0]![0]).toEqual({ last_name: 'Lovelace' });
    expect(sessionStorage.getItem('app:anonymous-answers')).toBeNull();
  });

  it('saves the applicant\'s changes a moment after typing stops, and nothing once stopped', async () => {
    const session = createApplicationSession(applicant(), api, sessionStorage);
    const stop = session.start();
    session.answers.change({ first_name: 'Ada' });
    await vi.advanceTimersByTimeAsync(1500);
    expect(saveAnswers).toHaveBeenCalledTimes(1);
    stop();
    session.answers.change({ first_name: 'Grace' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(saveAnswers).toHaveBeenCalledTimes(1);
  });

  it('follows each identity with its own session: another applicant or the service view shares nothing', () => {
    const ada = createApplicationSession(applicant({ first_name: 'Ada' }), api, sessionStorage);
    const service = createApplicationSession({ kind: 'service', view: undefined }, api, sessionStorage);
    ada.answers.change({ first_name: 'Changed' });
    expect(service.answers.get()).toEqual({});
    expect(service.saveQueue).toBeNull();
    expect(identityKey(applicant())).toBe('applicant:ada@example.org');
    expect(identityKey({ kind: 'service', view: undefined })).toBe('service');
  });
});
