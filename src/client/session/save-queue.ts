import type { Changes } from '../../shared/answers/apply-changes.ts';
import { saveAnswers, saveAnswersAsPageCloses, type AnswerClocks } from './api/answers-api.ts';
import { ServerError, UnauthorizedError } from '../lib/api-errors.ts';
import { answersStore } from './answers-store.ts';

/**
 * Answers not yet acknowledged by the server (spec-decisions 3 and the "never lose an
 * answer" rule). Every change joins the queue; the queue saves a moment after typing
 * stops, on navigation and when the page is hidden, retries with growing pauses while
 * the server or the network is away, and keeps what is unsaved in sessionStorage (this
 * tab only, gone when it closes) so that a reload or a login after an inactivity logout
 * still saves it. Each change carries the moment it was made (the `_clock` of the save), and
 * the server keeps the newest change of each key: a late retry or another tab's older save
 * cannot win over what was typed last.
 */
export type SaveState = 'saved' | 'saving' | 'pending' | 'offline' | 'failed' | 'logged_out' | 'submitted';

const AUTOSAVE_MS = 1500;
const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];
const storageKey = (owner: string) => `app:unsaved:${owner}`;

let owner: string | null = null;
let pending: Changes = {};
let clocks: AnswerClocks = {};
let lastClock = 0;
let inFlight: Promise<boolean> | null = null;
let state: SaveState = 'saved';
let attempt = 0;
let timer: number | undefined;
// a save answered after the owner changed (logout, ended session) must not touch the new queue
let generation = 0;
const listeners = new Set<() => void>();

function setState(next: SaveState): void {
  if (state === next) return;
  state = next;
  listeners.forEach((listener) => listener());
}

/** The time of a change, never twice the same in this tab: two quick changes of a key keep their order. */
function nextClock(): number {
  lastClock = Math.max(Date.now(), lastClock + 1);
  return lastClock;
}

function persist(): void {
  if (!owner) return;
  if (Object.keys(pending).length) sessionStorage.setItem(storageKey(owner), JSON.stringify({ answers: pending, clocks }));
  else sessionStorage.removeItem(storageKey(owner));
}

function restore(username: string): void {
  try {
    const saved = JSON.parse(sessionStorage.getItem(storageKey(username)) ?? '{}') as { answers?: Changes; clocks?: AnswerClocks };
    pending = saved.answers ?? {};
    clocks = saved.clocks ?? {};
  } catch {
    pending = {};
    clocks = {};
  }
  for (const key of Object.keys(pending)) clocks[key] ??= nextClock();
}

const pick = (from: AnswerClocks, keys: string[]): AnswerClocks => Object.fromEntries(keys.map((key) => [key, from[key] ?? nextClock()]));

function schedule(delay: number): void {
  window.clearTimeout(timer);
  timer = window.setTimeout(() => void flush(), delay);
}

/** Saves what is pending now; resolves true once everything queued so far is acknowledged. */
export async function flush(): Promise<boolean> {
  if (!owner) return true;
  if (inFlight) await inFlight;
  if (!Object.keys(pending).length) {
    if (state !== 'submitted' && state !== 'logged_out') setState('saved');
    return true;
  }
  const sent = { ...pending };
  const sentClocks = pick(clocks, Object.keys(sent));
  const sentBy = generation;
  window.clearTimeout(timer);
  setState('saving');
  inFlight = saveAnswers(sent, sentClocks).then(
    ({ stale }) => {
      if (sentBy !== generation) return true;
      for (const key of Object.keys(sent)) {
        if (clocks[key] !== sentClocks[key]) continue; // changed again since: still to save
        delete pending[key];
        delete clocks[key];
      }
      // another tab, or a save of this one that ran late, holds a newer change: show it
      const newer = Object.fromEntries(Object.entries(stale).filter(([key]) => !(key in pending)));
      if (Object.keys(newer).length) answersStore.applyFromServer(newer);
      attempt = 0;
      persist();
      setState(Object.keys(pending).length ? 'pending' : 'saved');
      if (Object.keys(pending).length) schedule(0);
      return true;
    },
    (error: unknown) => {
      if (sentBy !== generation) return false;
      if (error instanceof UnauthorizedError) {
        setState('logged_out'); // kept; saved after the next login
      } else if (error instanceof ServerError && error.code === 'SUBMITTED') {
        pending = {};
        clocks = {};
        persist();
        setState('submitted');
      } else {
        setState(error instanceof ServerError && error.code === 'NETWORK' ? 'offline' : 'failed');
        schedule(RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]!);
      }
      return false;
    },
  ).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

export const saveQueue = {
  state: (): SaveState => state,
  owner: (): string | null => owner,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  /** The applicant whose answers are saved; what an earlier visit left unsaved is picked up. */
  setOwner(username: string | null): void {
    if (owner === username) return;
    owner = username;
    generation += 1;
    window.clearTimeout(timer);
    pending = {};
    clocks = {};
    attempt = 0;
    if (username) {
      restore(username);
      setState(Object.keys(pending).length ? 'pending' : 'saved');
      if (Object.keys(pending).length) schedule(0);
    }
  },

  /** Unsaved answers left by an earlier visit of this tab, to put back into the pages. */
  unsaved: (): Changes => ({ ...pending }),

  enqueue(changes: Changes): void {
    if (!owner) return;
    Object.assign(pending, changes);
    for (const key of Object.keys(changes)) clocks[key] = nextClock();
    persist();
    setState('pending');
    schedule(AUTOSAVE_MS);
  },

  /** Page hidden or closing: hand what is pending to the browser to send (fetch keepalive). */
  sendBeforeUnload(): void {
    if (!owner || !Object.keys(pending).length) return;
    saveAnswersAsPageCloses(pending, pick(clocks, Object.keys(pending)));
  },
};

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => void flush());
  window.addEventListener('pagehide', () => saveQueue.sendBeforeUnload());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') saveQueue.sendBeforeUnload();
  });
}
