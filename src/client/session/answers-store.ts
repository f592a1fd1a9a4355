import { useCallback, useRef, useSyncExternalStore } from 'react';
import { applyChanges, type Changes } from '../../shared/answers/apply-changes.ts';
import type { AnswerValue, Answers } from '../../shared/answers/conditions.ts';
import { form } from '../../shared/form/form-model-data.ts';

/**
 * The applicant's answers while the pages are open: one store for all pages (and for the
 * features that save, validate and carry them), so a keystroke re-renders only the blocks
 * whose answers changed.
 */
export interface Extras {
  /** add-another counts by button id (default 1) */
  addAnother: Record<string, number>;
  /** chosen tab by tab id */
  tabs: Record<string, string>;
}

/** `load`: answers arrived (profile, carried, prefilled); `change`: the applicant changed something. */
export type ChangeSource = 'change' | 'load';
type Listener = (changed: Changes, source: ChangeSource) => void;

let answers: Record<string, AnswerValue> = {};
let extras: Extras = { addAnother: {}, tabs: {} };
const listeners = new Set<Listener>();
const extraListeners = new Set<() => void>();

export const answersStore = {
  get: (): Answers => answers,
  getExtras: (): Extras => extras,

  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  subscribeExtras(listener: () => void): () => void {
    extraListeners.add(listener);
    return () => extraListeners.delete(listener);
  },

  /** An applicant's change, with everything it implies; returns what changed. */
  change(changes: Changes): Changes {
    const result = applyChanges(form, answers, changes);
    if (!Object.keys(result.changed).length) return result.changed;
    answers = result.answers;
    listeners.forEach((listener) => listener(result.changed, 'change'));
    return result.changed;
  },

  /** Loaded answers (a profile, carried answers): replaces everything, implies nothing. */
  replace(next: Record<string, AnswerValue>, nextExtras?: Extras): void {
    const changed: Changes = {};
    for (const key of new Set([...Object.keys(answers), ...Object.keys(next)])) changed[key] = next[key] ?? '';
    answers = { ...next };
    if (nextExtras) extras = nextExtras;
    listeners.forEach((listener) => listener(changed, 'load'));
    extraListeners.forEach((listener) => listener());
  },

  /** Values the server wrote itself (a converted document's ANSWERED): shown, not saved again. */
  applyFromServer(values: Record<string, AnswerValue>): void {
    answers = { ...answers, ...values };
    listeners.forEach((listener) => listener({ ...values }, 'load'));
  },

  setAddAnother(buttonId: string, count: number): void {
    extras = { ...extras, addAnother: { ...extras.addAnother, [buttonId]: count } };
    extraListeners.forEach((listener) => listener());
  },

  setTab(tabId: string, tab: string): void {
    extras = { ...extras, tabs: { ...extras.tabs, [tabId]: tab } };
    extraListeners.forEach((listener) => listener());
  },
};

/**
 * A value derived from the answers, recomputed only when one of `keys` changes (null:
 * any key), and kept by reference while `isEqual` says it is the same.
 */
export function useAnswersSelector<T>(keys: readonly string[] | null, select: (answers: Answers) => T, isEqual: (a: T, b: T) => boolean = Object.is): T {
  const cache = useRef<{ value: T; version: number } | null>(null);
  const version = useRef(0);
  const selectRef = useRef(select);
  selectRef.current = select;

  const subscribe = useCallback((notify: () => void) => answersStore.subscribe((changed) => {
    if (keys && !keys.some((key) => key in changed)) return;
    version.current++;
    notify();
  }), [keys]);

  const getSnapshot = useCallback(() => {
    if (!cache.current || cache.current.version !== version.current) {
      const value = selectRef.current(answersStore.get());
      cache.current = { value: cache.current && isEqual(cache.current.value, value) ? cache.current.value : value, version: version.current };
    }
    return cache.current.value;
  }, [isEqual]);

  return useSyncExternalStore(subscribe, getSnapshot);
}

export function useExtras(): Extras {
  return useSyncExternalStore(answersStore.subscribeExtras, answersStore.getExtras);
}
