import { applyChanges, type Changes } from '../../shared/answers/apply-changes.ts';
import type { AnswerValue, Answers } from '../../shared/answers/conditions.ts';
import { form } from '../../shared/form/form-model-data.ts';
import { createStore } from './store.ts';

/**
 * One applicant's answers while the pages are open: one store for all pages (and for the
 * features that save, validate and carry them), so a keystroke re-renders only the blocks
 * whose answers changed. Each application session has its own.
 */
export interface Extras {
  /** add-another counts by button id (default 1) */
  addAnother: Record<string, number>;
  /** chosen tab by tab id */
  tabs: Record<string, string>;
}

/** `load`: answers arrived from the server (a converted document, a newer save); `change`: the applicant changed something. */
export type ChangeSource = 'change' | 'load';
export interface AnswersEvent {
  changed: Changes;
  source: ChangeSource;
}

export type AnswersStore = ReturnType<typeof createAnswersStore>;

export function createAnswersStore(initial: Record<string, AnswerValue>, initialExtras: Extras) {
  const drawn: Answers = { ...initial };
  const answers = createStore<Record<string, AnswerValue>, AnswersEvent>({ ...initial });
  const extras = createStore<Extras>(initialExtras);
  return {
    get: (): Answers => answers.get(),
    /** The answers the session started with: those a page the server drew shows until React takes it over. */
    getDrawn: (): Answers => drawn,
    getExtras: extras.get,
    subscribe: answers.subscribe,
    subscribeExtras: extras.subscribe,

    /** An applicant's change, with everything it implies; returns what changed. */
    change(changes: Changes): Changes {
      const result = applyChanges(form, answers.get(), changes);
      if (Object.keys(result.changed).length) answers.set(result.answers, { changed: result.changed, source: 'change' });
      return result.changed;
    },

    /** Values the server wrote itself (a converted document's ANSWERED, a newer save): shown, not saved again. */
    applyFromServer(values: Record<string, AnswerValue>): void {
      answers.set({ ...answers.get(), ...values }, { changed: { ...values }, source: 'load' });
    },

    setAddAnother(buttonId: string, count: number): void {
      const current = extras.get();
      extras.set({ ...current, addAnother: { ...current.addAnother, [buttonId]: count } });
    },

    setTab(tabId: string, tab: string): void {
      const current = extras.get();
      extras.set({ ...current, tabs: { ...current.tabs, [tabId]: tab } });
    },
  };
}
