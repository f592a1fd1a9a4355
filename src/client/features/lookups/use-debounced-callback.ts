import { useEffect, useMemo, useRef } from 'react';

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** drops a pending call */
  cancel(): void;
}

/**
 * `fn` called `wait` ms after the last call, but no later than `maxWait` ms after the
 * first call still waiting (lodash's debounce with maxWait): typing steadily still shows
 * suggestions every `maxWait` ms. Always calls the latest `fn` with the latest arguments.
 */
export function useDebouncedCallback<A extends unknown[]>(fn: (...args: A) => void, wait: number, maxWait: number): Debounced<A> {
  const latest = useRef(fn);
  latest.current = fn;
  const debounced = useMemo(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let maxTimer: ReturnType<typeof setTimeout> | undefined;
    let pending: A | undefined;
    const cancel = () => {
      clearTimeout(timer);
      clearTimeout(maxTimer);
      timer = maxTimer = pending = undefined;
    };
    const run = () => {
      const args = pending;
      cancel();
      if (args) latest.current(...args);
    };
    const call = (...args: A) => {
      pending = args;
      clearTimeout(timer);
      timer = setTimeout(run, wait);
      maxTimer ??= setTimeout(run, maxWait);
    };
    return Object.assign(call, { cancel });
  }, [wait, maxWait]);
  useEffect(() => debounced.cancel, [debounced]);
  return debounced;
}
