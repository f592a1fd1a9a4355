import { useSyncExternalStore } from 'react';
import type { PageId } from '../../../shared/form/form-model.ts';
import type { FieldErrors } from '../../../shared/validation/field-errors.ts';
import { saveValidations } from './api/lifecycle-api.ts';
import { answersStore } from '../../session/answers-store.ts';

/**
 * The application's messages while it is being validated (web_status validating): every
 * page, checked by the shared validators when a page opens, a field is left or the
 * answers settle, never per keystroke. The compiled validators load only then.
 */
export type ApplicationErrors = Partial<Record<PageId, FieldErrors>>;

const SETTLE_MS = 400;
let errors: ApplicationErrors = {};
let active = false;
let timer: number | undefined;
let unsubscribe: (() => void) | undefined;
const listeners = new Set<() => void>();

function publish(next: ApplicationErrors): void {
  errors = next;
  listeners.forEach((listener) => listener());
}

export async function computeErrors(): Promise<ApplicationErrors> {
  const { validateApplication } = await import('../../../shared/validation/page-validation.ts');
  return validateApplication(answersStore.get());
}

export const applicationErrors = {
  get: (): ApplicationErrors => errors,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  /** Turns checking on or off with the status. */
  setActive(on: boolean): void {
    if (on === active) return;
    active = on;
    unsubscribe?.();
    unsubscribe = undefined;
    if (!on) {
      publish({});
      return;
    }
    void applicationErrors.revalidate();
    unsubscribe = answersStore.subscribe(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => void applicationErrors.revalidate(), SETTLE_MS);
    });
  },

  async revalidate(): Promise<ApplicationErrors> {
    if (!active) return {};
    const next = await computeErrors();
    publish(next);
    return next;
  },

  /** The server's answer to a refused submit: its messages win until the next check. */
  showServerErrors(flat: FieldErrors, pages: Record<string, string[]>): void {
    const next: ApplicationErrors = {};
    for (const [page, keys] of Object.entries(pages)) {
      next[page as PageId] = Object.fromEntries(keys.map((key) => [key, flat[key] ?? []]));
    }
    publish(next);
  },
};

/** Errors are reported to the server only when there is at least one (spec section 4). */
export async function reportErrors(found: ApplicationErrors): Promise<void> {
  const flat = Object.assign({}, ...Object.values(found)) as FieldErrors;
  if (Object.keys(flat).length) await saveValidations(flat).catch(() => {});
}

export function useApplicationErrors(): ApplicationErrors {
  return useSyncExternalStore(applicationErrors.subscribe, applicationErrors.get);
}
