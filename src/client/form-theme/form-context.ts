import type { Answers } from '../../shared/answers/conditions.ts';

/** One choice of a list or a set of radios. */
export interface ChoiceItem {
  value: string;
  label: string;
}

/**
 * What every widget of a part may read besides its own props. The theme asks the form's
 * owner (the app) through it, and falls back to the schema and RJSF's props when it
 * is silent, so the theme also draws a plain RJSF form.
 */
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
  /** the choices a question offers now (lists narrowed by other answers); else the schema's enum */
  optionsFor?(key: string): ChoiceItem[] | undefined;
  /** whether an answer is required now (a condition on other answers); else the schema's `required` */
  requiredNow?(key: string): boolean;
  /** the message for an answer the form refuses (a date out of range), checked when a field is left */
  checkAnswer?(key: string, value: string): Promise<string | undefined>;
  /** DOM ids are the answer keys (unique in the whole form, the anchors of /page#key); else RJSF's ids */
  idsAreKeys?: boolean;
  /**
   * Whether a choice the keyboard passes through on its way to another (a list's arrows and
   * type-ahead, a radio group's arrows) waits, shown but not answered, until the choice is
   * committed (widgets/committed-choice.ts); else every choice is the answer at once
   */
  holdWhilePassing?(key: string, value: string): boolean;
  /**
   * What a widget shows but has not made the answer yet (a search's typed name, a list's
   * passing choice): `commit` makes it the answer at once, should the page be hidden or
   * closed first, and says whether it did; null when nothing is held any more
   */
  holdUncommitted?(key: string, commit: (() => boolean) | null): void;
  /** whether this answer would hide answers already given (it is then asked about first) */
  hidesAnswers?(key: string, value: string): boolean;
}

const EMPTY_CONTEXT: FormContext = { hidden: new Set(), answers: {}, loggedIn: false, serviceView: false, reportLocalError: () => {}, localErrors: {} };

/** The context of a widget, field or template; a plain RJSF form gives none. */
export function contextOf(props: { registry?: { formContext?: unknown } }): FormContext {
  return { ...EMPTY_CONTEXT, ...(props.registry?.formContext as Partial<FormContext> | undefined) };
}

/** The id of a field's control, from which its label, help and messages ids are made. */
export function fieldId(props: { id?: string; name: string; registry?: { formContext?: unknown } }): string {
  return contextOf(props).idsAreKeys || !props.id ? props.name : props.id;
}

/** Ids tied to a field's input, so help, description and errors are announced with it. */
export function describedBy(id: string, options: { help?: boolean; description?: boolean; errors?: boolean }): string | undefined {
  const ids = [options.description ? `${id}-description` : '', options.help ? `${id}-help` : '', options.errors ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

interface DescribedProps {
  id?: string;
  name: string;
  registry?: { formContext?: unknown };
  uiSchema?: Record<string, unknown>;
  schema?: { description?: string };
  rawErrors?: string[];
}

/** describedBy for a widget, from its own props: `errors` when the widget knows of more than rawErrors. */
export function describedByOf(props: DescribedProps, errors = Boolean(props.rawErrors?.length)): string | undefined {
  return describedBy(fieldId(props), {
    help: Boolean(props.uiSchema?.['ui:help']),
    description: Boolean(props.schema?.description || props.uiSchema?.['ui:description']),
    errors,
  });
}

/** Whether an answer is required now: the schema's `required`, or the owner's condition that holds now. */
export function isRequiredNow(key: string, context: FormContext, schemaRequired = false): boolean {
  return schemaRequired || Boolean(context.requiredNow?.(key));
}

/** aria-required for a widget. */
export function ariaRequired(props: { name: string; required?: boolean; registry?: { formContext?: unknown } }): true | undefined {
  return isRequiredNow(props.name, contextOf(props), props.required) ? true : undefined;
}

/** The choices of a list or radio question: the owner's (narrowed by other answers), else the schema's enum. */
export function choicesOf(props: { name: string; registry?: { formContext?: unknown }; options?: { enumOptions?: { value: unknown; label: string }[] } }): ChoiceItem[] {
  return contextOf(props).optionsFor?.(props.name)
    ?? (props.options?.enumOptions ?? []).map((option) => ({ value: String(option.value), label: option.label }));
}
