import type { ErrorObject } from 'ajv';
import { isAnswered, type Answers } from '../answers/conditions.ts';
import { hiddenKeys } from '../answers/visibility.ts';
import { form } from '../form/form-model-data.ts';
import type { PageId } from '../form/form-model.ts';
import messageFile from '../generated/page-messages.json';
import { pageValidators } from '../generated/page-validators.js';
import { fillTemplate } from '../text/fill-template.ts';
import type { FieldErrors } from './field-errors.ts';

interface PageMessages {
  required: Record<string, Record<string, string>>;
  properties: Record<string, string | Record<string, string>>;
}

/** In the browser, in the page's language (each language's build has its own); on the server, English. */
const messages = messageFile as Record<PageId, PageMessages>;
const messagesOf = (page: PageId): PageMessages => messages[page];

/** The message a schema gives a failed rule, found by where the rule sits (schemaPath). */
function messageOf(page: PageId, error: ErrorObject): { key: string; message: string } {
  const pageMessages = messagesOf(page);
  if (error.keyword === 'required') {
    const key = (error.params as { missingProperty: string }).missingProperty;
    const at = error.schemaPath.replace(/\/required$/, '');
    return { key, message: pageMessages.required[at]?.[key] ?? form.fields[key]?.title ?? key };
  }
  const key = error.instancePath.slice(1);
  const at = error.schemaPath.slice(0, error.schemaPath.lastIndexOf('/'));
  const found = pageMessages.properties[at];
  const template = typeof found === 'string' ? found : found?.[error.keyword] ?? form.fields[key]?.title ?? key;
  return { key, message: fillTemplate(template, error.params as Record<string, string | number>) };
}

/** What is validated: given answers only ("" means cleared), and nothing the page hides. */
function visibleAnswers(page: PageId, answers: Answers): Record<string, unknown> {
  const hidden = hiddenKeys(form.pages[page], answers);
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(answers)) {
    if (isAnswered(value) && !hidden.has(key)) result[key] = value;
  }
  return result;
}

/**
 * Spec section 5 "Application answers": the messages of one page, per field,
 * de-duplicated, every field collected. The same code runs in the browser and on the server.
 */
export function validatePage(page: PageId, answers: Answers): FieldErrors {
  const validate = pageValidators[page];
  if (validate(visibleAnswers(page, answers))) return {};
  const errors: FieldErrors = {};
  for (const error of validate.errors ?? []) {
    if (error.keyword === 'if') continue; // the failing `then` reports itself
    const { key, message } = messageOf(page, error);
    const list = (errors[key] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return errors;
}

/**
 * The first message for one answer checked on its own, as a field is left: by its own
 * rules only (a format, a date window, a pattern). The page's visibility rules are not
 * applied: the field is on screen, and the other answers they read are not given here.
 */
export function checkOneAnswer(page: PageId, key: string, value: string): string | undefined {
  const validate = pageValidators[page];
  if (validate({ [key]: value })) return undefined;
  for (const error of validate.errors ?? []) {
    if (error.keyword === 'if' || error.keyword === 'required') continue;
    const found = messageOf(page, error);
    if (found.key === key) return found.message;
  }
  return undefined;
}

/** Every page's errors; pages without errors are left out. */
export function validateApplication(answers: Answers): Partial<Record<PageId, FieldErrors>> {
  const result: Partial<Record<PageId, FieldErrors>> = {};
  for (const page of form.pageOrder) {
    const errors = validatePage(page, answers);
    if (Object.keys(errors).length) result[page] = errors;
  }
  return result;
}
