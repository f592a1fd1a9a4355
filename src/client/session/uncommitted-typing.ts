import { createStore, type Store } from './store.ts';

/**
 * Text on the page that is not an answer yet: a school search's name becomes one only when
 * a school is chosen or the field is left, as a search's keys are not each an answer. While
 * any is held the page does not say its changes are saved, and when the page is hidden,
 * closed, or logged out, each is made an answer first (`commitAll`), so what was typed goes
 * with the answers' last save instead of being lost with the tab.
 */
export interface UncommittedTyping {
  /** the keys whose typed text is held */
  held: Store<ReadonlySet<string>>;
  /** `commit` makes the key's typed text its answer, synchronously; null: nothing is held */
  hold(key: string, commit: (() => void) | null): void;
  commitAll(): void;
}

export function createUncommittedTyping(): UncommittedTyping {
  const commits = new Map<string, () => void>();
  const held = createStore<ReadonlySet<string>>(new Set());
  const changed = () => held.set(new Set(commits.keys()));
  return {
    held,
    hold(key, commit) {
      if (commit) {
        const had = commits.has(key);
        commits.set(key, commit);
        if (!had) changed();
      } else if (commits.delete(key)) {
        changed();
      }
    },
    commitAll() {
      if (!commits.size) return;
      for (const [key, commit] of [...commits]) {
        commits.delete(key);
        commit();
      }
      changed();
    },
  };
}
