import type { Changes } from '../../shared/answers/apply-changes.ts';
import type { AnswerValue } from '../../shared/answers/conditions.ts';
import { ServerError, UnauthorizedError } from '../lib/api-errors.ts';
import type { AnswerClocks, SaveBasis, SaveReply } from './api/answers-api.ts';
import { createStore } from './store.ts';
import type { Leftover, UnsavedEntries, UnsavedStore } from './unsaved-answers-store.ts';

/**
 * Answers not yet acknowledged by the server (spec-decisions 3 and the "never lose an
 * answer" rule). Every change joins the queue; the queue saves a moment after typing
 * stops, on navigation and when the page is hidden, retries with growing pauses while the
 * server or the network is away, and keeps what is unacknowledged in the browser's
 * storage, encrypted for the account (unsaved-answers-store.ts), so that a closed tab, a
 * crash or a login after an inactivity logout still saves it, from any tab of that
 * account. Each change carries the moment it was made (`_clock`) and the stored change
 * the page showed when it was made (`_seen`): the server keeps the newest change of each
 * key and refuses one made on a view that is no longer true; the page then shows what is
 * stored and says what was not saved. It never reads "saved" before it has looked for
 * what an earlier page left and sent it.
 */
export type SaveState = 'restoring' | 'saved' | 'saving' | 'pending' | 'offline' | 'failed' | 'logged_out' | 'submitted';

export interface SaveApi {
  saveAnswers(answers: Changes, clocks: AnswerClocks, basis: SaveBasis): Promise<SaveReply>;
  saveAnswersAsPageCloses(answers: Changes, clocks: AnswerClocks, basis: SaveBasis): void;
}

/** An answer typed on this device that another device's or tab's saved answer overruled. */
export interface Overruled {
  key: string;
  typed: AnswerValue;
  stored: AnswerValue;
}

export interface SaveQueueOptions {
  api: SaveApi;
  /** this page's id (the save's _writer) */
  writer: string;
  /** the clock of each key's stored change when the page was drawn (the profile's answer_clock) */
  seen: Record<string, number>;
  /** opens where unacknowledged answers outlive the tab; null where the browser cannot (no Web Crypto) */
  openStore(): Promise<UnsavedStore | null>;
  /** where a value the server holds is shown */
  showFromServer(values: Record<string, AnswerValue>): void;
  /** typed answers that were not saved because another device or tab had saved others first */
  onOverruled(overruled: Overruled[]): void;
}

const AUTOSAVE_MS = 1500;
const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];

export type SaveQueue = ReturnType<typeof createSaveQueue>;

/** What one save sends: a page's entries as that page (its writer). */
interface Lane {
  writer: string;
  entries: UnsavedEntries;
  /** a record left by a page that is gone, or this page's own entries */
  leftover?: Leftover;
}

const same = (a: AnswerValue | undefined, b: AnswerValue | undefined) => (a ?? '') === (b ?? '');

export function createSaveQueue({ api, writer, seen: seenAtStart, openStore, showFromServer, onOverruled }: SaveQueueOptions) {
  const state = createStore<SaveState>('restoring');
  /** this page's unacknowledged changes */
  let entries: UnsavedEntries = {};
  /** records of gone pages this page sends, oldest first */
  let leftovers: Leftover[] = [];
  /** the clock of the stored change of each key this page has seen */
  const known: Record<string, number> = { ...seenAtStart };
  let lastClock = 0;
  let inFlight: Promise<boolean> | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // a save answered after the queue was paused (the session ended) must not touch it
  let generation = 0;
  let running = false;
  let store: UnsavedStore | null = null;
  let restored: Promise<void> | null = null;

  const setState = (next: SaveState) => {
    if (state.get() !== next) state.set(next);
  };
  const hasEntries = () => Object.keys(entries).length > 0;
  const hasUnacknowledged = () => hasEntries() || leftovers.length > 0;
  const settledState = (): SaveState => (hasUnacknowledged() ? 'pending' : 'saved');

  /**
   * The time of a change: never twice the same in this page, and later than the stored
   * change the page has seen of that key, so an answer typed over a value it was shown wins
   * over it even when this device's clock is behind the one that wrote it.
   */
  const clockFor = (key: string) => (lastClock = Math.max(Date.now(), lastClock + 1, (known[key] ?? 0) + 1));

  const keep = () => void store?.keep(entries);

  function schedule(delay: number): void {
    clearTimeout(timer);
    if (running) timer = setTimeout(() => void flush(), delay);
  }

  const bodyOf = (lane: Lane) => {
    const keys = Object.keys(lane.entries);
    return {
      answers: Object.fromEntries(keys.map((key) => [key, lane.entries[key]!.value])) as Changes,
      clocks: Object.fromEntries(keys.map((key) => [key, lane.entries[key]!.clock])),
      basis: { writer: lane.writer, seen: Object.fromEntries(keys.map((key) => [key, lane.entries[key]!.seen])) },
    };
  };

  /** What the server answered to a lane: acknowledged keys leave the queue; refused ones show what is stored. */
  function settle(lane: Lane, sent: UnsavedEntries, reply: SaveReply): void {
    const overruled: Overruled[] = [];
    const shown: Record<string, AnswerValue> = {};
    for (const [key, entry] of Object.entries(sent)) {
      const own = lane.leftover ? undefined : entries[key];
      const stillThis = lane.leftover ? true : own?.clock === entry.clock;
      if (!(key in reply.stale)) {
        known[key] = Math.max(known[key] ?? 0, entry.clock);
        if (stillThis && !lane.leftover) delete entries[key];
        continue;
      }
      // refused: a newer change, or one this page never saw, is stored; the page has seen it now
      const stored = reply.stale[key]!;
      known[key] = reply.stale_clock[key] ?? known[key] ?? 0;
      if (!lane.leftover && !stillThis) continue; // typed again since: that change is sent next, and judged then
      if (!lane.leftover) delete entries[key];
      if (lane.leftover && key in entries) continue; // typed again on this page: that one is sent next
      shown[key] = stored;
      if (!same(stored, entry.value)) overruled.push({ key, typed: entry.value, stored });
    }
    if (Object.keys(shown).length) showFromServer(shown);
    if (overruled.length) onOverruled(overruled);
  }

  /** Saves what is pending now; resolves true once everything queued so far is acknowledged. */
  async function flush(): Promise<boolean> {
    if (inFlight) await inFlight;
    if (restored) await restored;
    if (!running) return !hasUnacknowledged(); // paused: nothing leaves until a page of the account resumes
    const lane: Lane | undefined = leftovers[0] ? { writer: leftovers[0].writer, entries: leftovers[0].entries, leftover: leftovers[0] }
      : hasEntries() ? { writer, entries } : undefined;
    if (!lane) {
      if (state.get() !== 'submitted' && state.get() !== 'logged_out') setState('saved');
      return true;
    }
    const sent = JSON.parse(JSON.stringify(lane.entries)) as UnsavedEntries;
    const { answers, clocks, basis } = bodyOf({ ...lane, entries: sent });
    const sentBy = generation;
    clearTimeout(timer);
    setState('saving');
    inFlight = api.saveAnswers(answers, clocks, basis).then(
      (reply) => {
        if (sentBy !== generation) return true;
        settle(lane, sent, reply);
        if (lane.leftover) {
          lane.leftover.remove();
          leftovers = leftovers.filter((each) => each !== lane.leftover);
        }
        attempt = 0;
        keep();
        setState(settledState());
        if (hasUnacknowledged()) schedule(0);
        return !hasUnacknowledged();
      },
      (error: unknown) => {
        if (sentBy !== generation) return false;
        if (error instanceof UnauthorizedError) {
          setState('logged_out'); // kept; saved after the next login
        } else if (error instanceof ServerError && error.code === 'SUBMITTED') {
          entries = {};
          leftovers.forEach((leftover) => leftover.remove());
          leftovers = [];
          keep();
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
    const done = await inFlight;
    // a leftover acknowledged: this page's own entries (or the next leftover) go on at once
    return done && !hasUnacknowledged() ? true : done && running ? flush() : false;
  }

  /** What the pages left unsaved (records of gone pages of this account) is shown and sent before anything reads saved. */
  async function restore(): Promise<void> {
    // a pause (and a new resume, as React's strict mode does) while this ran leaves it to the newer one
    const startedIn = generation;
    let opened: UnsavedStore | null = null;
    try {
      opened = await openStore();
    } catch {
      opened = null;
    }
    if (startedIn !== generation) {
      opened?.close();
      return;
    }
    store = opened;
    const found = store ? await store.leftovers() : [];
    if (startedIn !== generation) {
      found.forEach((leftover) => leftover.release());
      return;
    }
    leftovers.push(...found);
    // the answers the applicant typed there are theirs to see here; what this page changed since stays
    const shown: Record<string, AnswerValue> = {};
    for (const leftover of found) {
      for (const [key, entry] of Object.entries(leftover.entries)) if (!(key in entries)) shown[key] = entry.value;
    }
    if (Object.keys(shown).length) showFromServer(shown);
    keep();
  }

  return {
    writer,
    state: state.get,
    subscribe: state.subscribe,
    stateStore: state,
    flush,
    /** Whether anything typed is not yet acknowledged: leaving the page then asks first. */
    hasUnacknowledged,

    enqueue(changes: Changes): void {
      for (const [key, value] of Object.entries(changes)) {
        entries[key] = { value, clock: clockFor(key), seen: known[key] ?? 0 };
      }
      keep();
      setState('pending');
      schedule(AUTOSAVE_MS);
    },

    /** Values the server reports (a refresh, an item removed) that this page now shows: its next change is based on them. */
    noteStored(clocks: Record<string, number>): void {
      for (const [key, clock] of Object.entries(clocks)) known[key] = Math.max(known[key] ?? 0, clock);
    },

    /** Whether a key has a change of this page not yet acknowledged (a refresh leaves it as typed). */
    isPending: (key: string) => key in entries || leftovers.some((leftover) => key in leftover.entries),

    /** The clock of the stored change of a key this page has seen (0: none). */
    seenClock: (key: string) => known[key] ?? 0,

    /** Page hidden or closing: hand what is pending to the browser to send (fetch keepalive); the stored record stays until acknowledged. */
    sendBeforeUnload(): void {
      for (const leftover of leftovers) {
        const { answers, clocks, basis } = bodyOf({ writer: leftover.writer, entries: leftover.entries });
        api.saveAnswersAsPageCloses(answers, clocks, basis);
      }
      if (hasEntries()) {
        const { answers, clocks, basis } = bodyOf({ writer, entries });
        api.saveAnswersAsPageCloses(answers, clocks, basis);
      }
    },

    /** Saving may run: what earlier pages left is looked for, shown and sent first. */
    resume(): void {
      running = true;
      if (hasEntries()) setState('pending');
      const resumedIn = generation;
      restored = restore().then(() => {
        if (resumedIn !== generation) return;
        if (hasUnacknowledged()) {
          setState('pending');
          schedule(0);
        } else if (state.get() === 'restoring') {
          setState('saved');
        }
      });
    },

    /** The session ended or the pages closed: no more timers, late answers ignored; what is unsaved stays kept. */
    pause(): void {
      running = false;
      generation += 1;
      clearTimeout(timer);
      leftovers.forEach((leftover) => leftover.release());
      leftovers = [];
      const closing = store;
      store = null;
      // the page's record is written before its lock goes, so a page that takes it over reads it whole
      void closing?.keep(entries).finally(() => closing.close());
    },
  };
}
