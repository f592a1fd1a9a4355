import type { PageId } from '../../shared/form/form-model.ts';
import type { FieldErrors } from '../../shared/validation/field-errors.ts';
import type { AnswersStore } from './answers-store.ts';
import { createStore } from './store.ts';

/**
 * The application's messages while it is being validated (web_status validating): every
 * page, checked by the shared validators when a page opens, a field is left or the
 * answers settle, never per keystroke. The compiled validators load only then.
 */
export type ApplicationErrors = Partial<Record<PageId, FieldErrors>>;

const SETTLE_MS = 400;

export type ApplicationErrorsStore = ReturnType<typeof createApplicationErrors>;

export function createApplicationErrors(answers: AnswersStore) {
  const errors = createStore<ApplicationErrors>({});
  let active = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: (() => void) | undefined;

  async function compute(): Promise<ApplicationErrors> {
    const [{ validateApplication }, { errorsOnChosenTabs }] = await Promise.all([
      import('../../shared/validation/page-validation.ts'), import('../../shared/validation/tab-errors.ts'),
    ]);
    return errorsOnChosenTabs(validateApplication(answers.get()), answers.getExtras().tabs);
  }

  async function revalidate(): Promise<ApplicationErrors> {
    if (!active) return {};
    const next = await compute();
    if (active) errors.set(next);
    return next;
  }

  return {
    get: errors.get,
    subscribe: errors.subscribe,
    compute,
    revalidate,

    /** Turns checking on or off with the status. */
    setActive(on: boolean): void {
      if (on === active) return;
      active = on;
      unsubscribe?.();
      unsubscribe = undefined;
      clearTimeout(timer);
      if (!on) {
        errors.set({});
        return;
      }
      void revalidate();
      unsubscribe = answers.subscribe(() => {
        clearTimeout(timer);
        timer = setTimeout(() => void revalidate(), SETTLE_MS);
      });
    },

    /** The server's answer to a refused submit: its messages win until the next check. */
    showServerErrors(flat: FieldErrors, pages: Record<string, string[]>): void {
      const next: ApplicationErrors = {};
      for (const [page, keys] of Object.entries(pages)) {
        next[page as PageId] = Object.fromEntries(keys.map((key) => [key, flat[key] ?? []]));
      }
      errors.set(next);
      // said as the chosen tabs show them, once that module is in (it loads with the validators)
      void import('../../shared/validation/tab-errors.ts').then(({ errorsOnChosenTabs }) => {
        if (errors.get() === next) errors.set(errorsOnChosenTabs(next, answers.getExtras().tabs));
      });
    },
  };
}
