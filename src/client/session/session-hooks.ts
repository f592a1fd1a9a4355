import { createContext, useCallback, useContext, useRef, useSyncExternalStore } from 'react';
import type { Answers } from '../../shared/answers/conditions.ts';
import type { ApplicationSession } from './application-session.ts';
import type { Extras } from './answers-store.ts';
import type { ApplicationErrors } from './application-errors.ts';
import type { DocumentState } from './documents-store.ts';
import type { SaveState } from './save-queue.ts';
import { createStore, useStore } from './store.ts';

/** The application session of the identity the pages show, handed down by the form frame. */
export const ApplicationSessionContext = createContext<ApplicationSession | null>(null);

export function useApplicationSession(): ApplicationSession {
  const session = useContext(ApplicationSessionContext);
  if (!session) throw new Error('useApplicationSession is used outside the application frame');
  return session;
}

/** The session where there is one (the header is also shown on the account pages). */
export function useOptionalApplicationSession(): ApplicationSession | null {
  return useContext(ApplicationSessionContext);
}

/**
 * A value derived from the answers, recomputed only when one of `keys` changes (null:
 * any key), and kept by reference while `isEqual` says it is the same.
 */
export function useAnswersSelector<T>(keys: readonly string[] | null, select: (answers: Answers) => T, isEqual: (a: T, b: T) => boolean = Object.is): T {
  const { answers } = useApplicationSession();
  const cache = useRef<{ value: T; version: number } | null>(null);
  const version = useRef(0);
  const selectRef = useRef(select);
  selectRef.current = select;

  const subscribe = useCallback((notify: () => void) => answers.subscribe(({ changed }) => {
    if (keys && !keys.some((key) => key in changed)) return;
    version.current++;
    notify();
  }), [answers, keys]);

  const getSnapshot = useCallback(() => {
    if (!cache.current || cache.current.version !== version.current) {
      const value = selectRef.current(answers.get());
      cache.current = { value: cache.current && isEqual(cache.current.value, value) ? cache.current.value : value, version: version.current };
    }
    return cache.current.value;
  }, [answers, isEqual]);

  // React takes a drawn page over (a section may be taken over long after the start) with what the server drew from
  const drawn = useRef<{ value: T } | null>(null);
  const getDrawnSnapshot = useCallback(() => (drawn.current ??= { value: selectRef.current(answers.getDrawn()) }).value, [answers]);

  return useSyncExternalStore(subscribe, getSnapshot, getDrawnSnapshot);
}

export function useExtras(): Extras {
  const { answers } = useApplicationSession();
  return useSyncExternalStore(answers.subscribeExtras, answers.getExtras, answers.getExtras);
}

export function useDocumentState(key: string): DocumentState {
  const { documents } = useApplicationSession();
  const read = () => documents.get(key);
  return useSyncExternalStore(documents.subscribe, read, read);
}

export function useApplicationErrors(): ApplicationErrors {
  const { errors } = useApplicationSession();
  return useSyncExternalStore(errors.subscribe, errors.get, errors.get);
}

const NO_QUEUE = createStore<SaveState>('saved');

/**
 * Whether the applicant's answers are saved ('saved' where nothing is saved: anonymous,
 * service); what the page shows but has not committed (uncommitted-answers.ts) is not.
 */
export function useSaveState(): SaveState {
  const session = useApplicationSession();
  const state = useStore(session.saveQueue?.stateStore ?? NO_QUEUE);
  const uncommitted = useStore(session.uncommitted.held).size > 0;
  return state === 'saved' && uncommitted && session.saveQueue ? 'pending' : state;
}
