import { useCallback, useEffect, useRef, useState } from 'react';
import type { PageId } from '../../../shared/form/form-model.ts';
import type { FieldErrors } from '../../../shared/validation/field-errors.ts';
import { answersStore } from './answers-store.ts';

const SETTLE_MS = 400;

/**
 * A page's messages while validation is on (web_status validating): checked when the page
 * opens, when a field is left, and shortly after the answers stop changing; never on
 * every keystroke.
 */
export function usePageErrors(page: PageId, active: boolean): { errors: FieldErrors; revalidate(): void } {
  const [errors, setErrors] = useState<FieldErrors>({});
  const timer = useRef<number | undefined>(undefined);

  const revalidate = useCallback(() => {
    if (!active) {
      setErrors({});
      return;
    }
    // the compiled validators load only once validation is on: a first visit stays light
    void import('../../../shared/validation/page-validation.ts').then(({ validatePage }) => setErrors(validatePage(page, answersStore.get())));
  }, [page, active]);

  useEffect(() => {
    revalidate();
    if (!active) return;
    const unsubscribe = answersStore.subscribe(() => {
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(revalidate, SETTLE_MS);
    });
    return () => {
      unsubscribe();
      window.clearTimeout(timer.current);
    };
  }, [revalidate, active]);

  return { errors, revalidate };
}
