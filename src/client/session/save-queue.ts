import type { Changes } from '../../shared/answers/apply-changes.ts';
import type { AnswerValue } from '../../shared/answers/conditions.ts';
import { ServerError, UnauthorizedError } from '../lib/api-errors.ts';
import type { AnswerClocks } from './api/answers-api.ts';
import type { TabStorage } from './tab-storage.ts';
import { createStore } from './store.ts';

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

export interface SaveApi {
  saveAnswers(answers: Changes, clocks: AnswerClocks): Promise<{ stale: Record<string, AnswerValue> }>;
  saveAnswersAsPageCloses(answers: Changes, clocks: AnswerClocks): void;
}

export interface SaveQueueOptions {
  owner: string;
  api: SaveApi;
  storage: TabStorage;
  /** where a newer value the server holds is shown */
  showFromServer(values: Record<string, AnswerValue>): void;
}

const AUTOSAVE_MS = 1500;
const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];
const storageKey = (owner: string) => `app:unsaved:${owner}`;

export type SaveQueue = ReturnType<typeof createSaveQueue>;

export function createSaveQueue({ owner, api, storage, showFromServer }: SaveQueueOptions) {
  const state = createStore<SaveState>('saved');
  let pending: Changes = {};
  let clocks: AnswerClocks = {};
  let lastClock = 0;
  let inFlight: Promise<boolean> | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // a save answered after the queue was paused (the session ended) must not touch it
  let generation = 0;
  let running = false;

  const setState = (next: SaveState) => {
    if (state.get() !== next) state.set(next);
  };

  /** The time of a change, never twice the same in this tab: two quick changes of a key keep their order. */
  const nextClock = () => (lastClock = Math.max(Date.now(), lastClock + 1));
  const pick = (keys: string[]): AnswerClocks => Object.fromEntries(keys.map((key) => [key, clocks[key] ?? nextClock()]));
  const hasPending = () => Object.keys(pending).length > 0;

  function persist(): void {
    if (hasPending()) storage.setItem(storageKey(owner), JSON.stringify({ answers: pending, clocks }));
    else storage.removeItem(storageKey(owner));
  }

  // what an earlier visit of this tab left unsaved
  try {
    const saved = JSON.parse(storage.getItem(storageKey(owner)) ?? '{}') as { answers?: Changes; clocks?: AnswerClocks };
    pending = saved.answers ?? {};
    clocks = saved.clocks ?? {};
  } catch {
    pending = {};
  }
  for (const key of Object.keys(pending)) clocks[key] ??= nextClock();
  if (hasPending()) state.set('pending');

  function schedule(delay: number): void {
    clearTimeout(timer);
    if (running) timer = setTimeout(() => void flush(), delay);
  }

  /** Saves what is pending now; resolves true once everything queued so far is acknowledged. */
  async function flush(): Promise<boolean> {
    if (inFlight) await inFlight;
    if (!hasPending()) {
      if (state.get() !== 'submitted' && state.get() !== 'logged_out') setState('saved');
      return true;
    }
    const sent = { ...pending };
    const sentClocks = pick(Object.keys(sent));
    const sentBy = generation;
    clearTimeout(timer);
    setState('saving');
    inFlight = api.saveAnswers(sent, sentClocks).then(
      ({ stale }) => {
        if (sentBy !== generation) return true;
        for (const key of Object.keys(sent)) {
          if (clocks[key] !== sentClocks[key]) continue; // changed again since: still to save
          delete pending[key];
          delete clocks[key];
        }
        // another tab, or a save of this one that ran late, holds a newer change: show it
        const newer = Object.fromEntries(Object.entries(stale).filter(([key]) => !(key in pending)));
        if (Object.keys(newer).length) showFromServer(newer);
        attempt = 0;
        persist();
        setState(hasPending() ? 'pending' : 'saved');
        if (hasPending()) schedule(0);
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

  return {
    owner,
    state: state.get,
    subscribe: state.subscribe,
    stateStore: state,
    flush,

    /** Unsaved answers left by an earlier visit of this tab, to put back into the pages. */
    unsaved: (): Changes => ({ ...pending }),

    enqueue(changes: Changes): void {
      Object.assign(pending, changes);
      for (const key of Object.keys(changes)) clocks[key] = nextClock();
      persist();
      setState('pending');
      schedule(AUTOSAVE_MS);
    },

    /** Page hidden or closing: hand what is pending to the browser to send (fetch keepalive). */
    sendBeforeUnload(): void {
      if (hasPending()) api.saveAnswersAsPageCloses(pending, pick(Object.keys(pending)));
    },

    /** Saving may run: what an earlier visit left goes at once. */
    resume(): void {
      running = true;
      if (hasPending()) schedule(0);
    },

    /** The session ended or the pages closed: no more timers, late answers ignored; what is unsaved stays in the tab. */
    pause(): void {
      running = false;
      generation += 1;
      clearTimeout(timer);
    },
  };
}
