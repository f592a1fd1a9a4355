import { evaluateCondition, type Answers } from '../../shared/answers/conditions.ts';
import { form } from '../../shared/form/form-model-data.ts';

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

/**
 * Whether an answer is required now: always (the section's "required") or under a
 * condition on other answers (an `allOf` if/then). The label's * and aria-required agree.
 */
export function isRequired(key: string, answers: Answers): boolean {
  const field = form.fields[key];
  return Boolean(field?.required || field?.requiredWhen?.some((condition) => evaluateCondition(answers, condition)));
}

/** aria-required for a widget: the schema's "required" or a condition that holds now. */
export function ariaRequired(props: { name: string; required?: boolean; registry?: { formContext?: unknown } }): true | undefined {
  const context = props.registry?.formContext as FormContext | undefined;
  return props.required || (context?.answers && isRequired(props.name, context.answers)) ? true : undefined;
}
