import { useSyncExternalStore } from 'react';

/**
 * Code loaded when it is first needed (the school look-up, the uploader), which a page drawn
 * on the server must take over exactly as it was drawn. Whether the code has arrived is state
 * of this tab alone: the server's drawing never loads it, and the browser may have loaded it
 * for one section before it takes over another. So while React takes a drawn section over it
 * reads "not arrived", as the server drew it, and moves to the loaded code right after; a part
 * the browser draws itself uses the code at once if it is there.
 */
export interface OnDemand<T> {
  /** Starts loading, once (again after a failure); resolves with the loaded value. */
  load(): Promise<T>;
  subscribe(listener: () => void): () => void;
  current(): T | undefined;
}

export function onDemand<T>(importer: () => Promise<T>): OnDemand<T> {
  let arrived: T | undefined;
  let loading: Promise<T> | undefined;
  const listeners = new Set<() => void>();
  return {
    load: () => (loading ??= importer().then(
      (value) => {
        arrived = value;
        listeners.forEach((listener) => listener());
        return value;
      },
      (error: unknown) => {
        loading = undefined; // tried again at the next load
        throw error;
      },
    )),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    current: () => arrived,
  };
}

const notArrived = () => undefined;

/** The loaded value, or undefined: always undefined while React takes over what the server drew (it drew it so). */
export function useOnDemand<T>(code: OnDemand<T>): T | undefined {
  return useSyncExternalStore(code.subscribe, code.current, notArrived);
}
