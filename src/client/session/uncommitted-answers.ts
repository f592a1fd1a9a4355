import { createStore, type Store } from './store.ts';

/**
 * What the page shows but has not made an answer yet: a school search's typed name (an
 * answer once a school is chosen or the field is left, as a search's keys are not each an
 * answer), a list's choice the keyboard is passing through (one once the list is left).
 * While any is held the page does not say its changes are saved, and when the page is
 * hidden, closed or logged out each is committed first (`commitAll`), so that it goes with
 * the answers' last save instead of being lost with the tab.
 */
export interface UncommittedAnswers {
  /** the keys that hold something uncommitted */
  held: Store<ReadonlySet<string>>;
  /**
   * `commit` makes what the key holds its answer, synchronously, and says whether it did (a
   * choice that would remove other answers waits to be asked about); null: nothing is held
   */
  hold(key: string, commit: (() => boolean) | null): void;
  commitAll(): void;
}

export function createUncommittedAnswers(): UncommittedAnswers {
  const commits = new Map<string, () => boolean>();
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
        if (commit()) commits.delete(key);
      }
      changed();
    },
  };
}
