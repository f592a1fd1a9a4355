import type { Answers } from '../../shared/answers/conditions.ts';

/** What every widget of a part may read, besides its own value. */
export interface FormContext {
  /** answer keys hidden by the conditional rules or beyond an add-another count */
  hidden: ReadonlySet<string>;
  /** all current answers (for option lists that depend on another answer) */
  answers: Answers;
  loggedIn: boolean;
  /** the read-only service view (spec "PDF / service view") */
  serviceView: boolean;
  /** a date the applicant typed that is not a valid answer: shown, not stored */
  reportLocalError(key: string, message: string | undefined): void;
  localErrors: Readonly<Record<string, string>>;
}

/** Ids tied to a field's input, so help and errors are announced with it. */
export function describedBy(key: string, options: { help?: boolean; errors?: boolean }): string | undefined {
  const ids = [options.help ? `${key}-help` : '', options.errors ? `${key}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}
