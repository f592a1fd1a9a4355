import { useSyncExternalStore } from 'react';

/**
 * A value and those who listen to it: the one building block of the application
 * session's parts (answers, save state, documents, errors, navigation). An event may
 * travel with each change, so a listener can tell what changed without comparing.
 */
export interface Store<T, E = void> {
  get(): T;
  set(next: T, event: E): void;
  subscribe(listener: (event: E) => void): () => void;
}

export function createStore<T, E = void>(initial: T): Store<T, E> {
  let value = initial;
  const listeners = new Set<(event: E) => void>();
  return {
    get: () => value,
    set(next, event) {
      value = next;
      listeners.forEach((listener) => listener(event));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** The store's value in a component, re-rendered when it is set. */
export function useStore<T, E>(store: Store<T, E>): T {
  // the same value while a page drawn on the server is taken over (its third argument)
  return useSyncExternalStore(store.subscribe as (notify: () => void) => () => void, store.get, store.get);
}
