/**
 * A browser's localStorage and Web Locks in memory, for tests of the client's session
 * without a browser: the storage keeps strings by key as localStorage does; the locks grant
 * a name to one holder at a time and answer `ifAvailable` requests with null while it is held,
 * as the Web Locks API does.
 */
export function memoryStorage(): Storage & { entries(): [string, string][] } {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
    entries: () => [...items.entries()],
  };
}

type Grant = (lock: Lock | null) => unknown;

export function memoryLocks(): LockManager & { held(): string[] } {
  const held = new Map<string, (() => void)[]>();
  const run = (name: string, callback: Grant): Promise<unknown> => {
    const waiting: (() => void)[] = [];
    held.set(name, waiting);
    return Promise.resolve(callback({ name, mode: 'exclusive' } as Lock)).finally(() => {
      held.delete(name);
      waiting.shift()?.();
    });
  };
  const request = ((name: string, optionsOrCallback: LockOptions | Grant, maybeCallback?: Grant): Promise<unknown> => {
    const options = typeof optionsOrCallback === 'function' ? {} : optionsOrCallback;
    const callback = (typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback)!;
    if (!held.has(name)) return run(name, callback);
    if (options.ifAvailable) return Promise.resolve(callback(null));
    return new Promise((resolve) => held.get(name)!.push(() => resolve(run(name, callback))));
  }) as LockManager['request'];
  return { request, query: () => Promise.resolve({ held: [], pending: [] }), held: () => [...held.keys()] };
}
