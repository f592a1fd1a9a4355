/**
 * What a schema change does, in the words staff use: each question added, removed or
 * renamed, each option added or removed, each rule tightened or loosened, each label and
 * message changed, and each page whose version changed. A change that can make an answer
 * already saved orphaned or invalid is marked `breaking`: its page's version must be bumped.
 */
import type { Json } from '../generate/expand.ts';
import type { GeneratedForm } from '../generate/form-model.ts';
import type { FieldMeta, FormModel } from '../../src/shared/form/form-model.ts';

export type ChangeKind =
  | 'page added' | 'page removed' | 'page version changed'
  | 'question added' | 'question removed' | 'question renamed' | 'question moved'
  | 'option added' | 'option removed'
  | 'rule tightened' | 'rule loosened' | 'rule changed'
  | 'label changed' | 'message changed';

export interface SchemaChange {
  kind: ChangeKind;
  /** the page the change is on (its new page, for a question moved) */
  page: string;
  /** the answer key, when the change is about one question; a renamed question: its new key */
  key?: string;
  /** a renamed question's old key */
  from?: string;
  /** option codes added or removed */
  codes?: string[];
  /** in staff's words */
  detail: string;
  /** can orphan or invalidate an answer already saved */
  breaking: boolean;
}

type Form = Pick<GeneratedForm, 'model' | 'validation' | 'messages'>;

const optionCodes = (model: FormModel, field: FieldMeta): string[] =>
  field.options ? (model.options[field.options] ?? []).map((option) => option.value).filter((code) => !field.exclude?.includes(code)) : [];

/** The rules ajv applies to one key on a page, wherever they sit (its property, a conditional branch). */
function rulesOf(validation: Json | undefined, key: string): { plain: Json; conditional: string[] } {
  const property = (validation?.properties as Json | undefined)?.[key] as Json | undefined;
  const conditional = ((validation?.allOf ?? []) as Json[])
    .filter((branch) => JSON.stringify(branch.then ?? {}).includes(`"${key}"`) || JSON.stringify(branch.else ?? {}).includes(`"${key}"`))
    .map((branch) => JSON.stringify(branch));
  return { plain: property ?? {}, conditional };
}

const describeField = (field: FieldMeta) => `"${field.title}" (${field.key})`;

function compareRules(before: Form, after: Form, oldField: FieldMeta, field: FieldMeta, changes: SchemaChange[]): void {
  const page = field.page;
  const was = rulesOf(before.validation[oldField.page], oldField.key);
  const now = rulesOf(after.validation[page], field.key);
  const add = (kind: ChangeKind, detail: string, breaking: boolean) =>
    changes.push({ kind, page, key: field.key, detail: `${describeField(field)}: ${detail}`, breaking });

  const wasRequired = Boolean(oldField.required), nowRequired = Boolean(field.required);
  const wasWhen = JSON.stringify(oldField.requiredWhen ?? []), nowWhen = JSON.stringify(field.requiredWhen ?? []);
  if (!wasRequired && nowRequired) add('rule tightened', 'now always required', true);
  else if (wasRequired && !nowRequired) add('rule loosened', field.requiredWhen ? 'required only under a rule now' : 'no longer required', false);
  else if (!nowRequired && wasWhen !== nowWhen) add(field.requiredWhen ? 'rule tightened' : 'rule loosened', field.requiredWhen ? 'the rule that makes it required changed' : 'no longer required under a rule', Boolean(field.requiredWhen));

  const limit = (name: string) => (typeof now.plain[name] === 'number' ? now.plain[name] : undefined) as number | undefined;
  const limitWas = (name: string) => (typeof was.plain[name] === 'number' ? was.plain[name] : undefined) as number | undefined;
  for (const [name, tighter] of [['maxLength', (a: number, b: number) => b < a], ['minLength', (a: number, b: number) => b > a]] as const) {
    const a = limitWas(name), b = limit(name);
    if (a === b) continue;
    const isTighter = a === undefined ? true : b === undefined ? false : tighter(a, b);
    add(isTighter ? 'rule tightened' : 'rule loosened', `${name} ${a ?? 'none'} → ${b ?? 'none'}`, isTighter);
  }
  if (was.plain.pattern !== now.plain.pattern) {
    add(now.plain.pattern ? 'rule changed' : 'rule loosened', now.plain.pattern ? `pattern now ${String(now.plain.pattern)}` : 'pattern removed', Boolean(now.plain.pattern));
  }
  for (const name of ['x-date-min', 'x-date-max', 'formatMinimum', 'formatMaximum', 'minimum', 'maximum', 'const']) {
    if (JSON.stringify(was.plain[name]) !== JSON.stringify(now.plain[name])) {
      add('rule changed', `${name} ${JSON.stringify(was.plain[name] ?? null)} → ${JSON.stringify(now.plain[name] ?? null)}`, now.plain[name] !== undefined);
    }
  }
  if (JSON.stringify(was.conditional) !== JSON.stringify(now.conditional)) add('rule changed', 'a conditional rule that applies to it changed', true);

  const wasCodes = optionCodes(before.model, oldField), nowCodes = optionCodes(after.model, field);
  const removed = wasCodes.filter((code) => !nowCodes.includes(code));
  const added = nowCodes.filter((code) => !wasCodes.includes(code));
  if (removed.length) changes.push({ kind: 'option removed', page, key: field.key, codes: removed, detail: `${describeField(field)}: options removed: ${removed.join(', ')}`, breaking: true });
  if (added.length) changes.push({ kind: 'option added', page, key: field.key, codes: added, detail: `${describeField(field)}: options added: ${added.join(', ')}`, breaking: false });

  if (oldField.title !== field.title) add('label changed', `label was "${oldField.title}"`, false);
  const wasMessages = JSON.stringify(messagesFor(before, oldField)), nowMessages = JSON.stringify(messagesFor(after, field));
  if (wasMessages !== nowMessages) add('message changed', 'an error message changed', false);
}

/** Every message a page gives for one key, whatever rule it belongs to. */
function messagesFor(form: Form, field: FieldMeta): string[] {
  const messages = form.messages[field.page];
  if (!messages) return [];
  const found: string[] = [];
  for (const byKey of Object.values(messages.required ?? {})) if (byKey[field.key]) found.push(byKey[field.key]!);
  for (const [at, message] of Object.entries(messages.properties ?? {})) {
    if (at.endsWith(`/${field.key}`)) found.push(...(typeof message === 'string' ? [message] : Object.values(message)));
  }
  return found.sort();
}

/** A removed key and an added key on the same page with the same label and type: one question renamed. */
function pairRenames(removed: FieldMeta[], added: FieldMeta[]): [FieldMeta, FieldMeta][] {
  const pairs: [FieldMeta, FieldMeta][] = [];
  for (const gone of removed) {
    const match = added.find((field) => field.page === gone.page && field.title === gone.title && field.type === gone.type && !pairs.some(([, taken]) => taken === field));
    if (match) pairs.push([gone, match]);
  }
  return pairs;
}

export function compareForms(before: Form, after: Form): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const oldPages = before.model.pages as Record<string, FormModel['pages'][keyof FormModel['pages']]>;
  const newPages = after.model.pages as Record<string, FormModel['pages'][keyof FormModel['pages']]>;
  for (const id of Object.keys(newPages)) {
    const was = oldPages[id], now = newPages[id]!;
    if (!was) changes.push({ kind: 'page added', page: id, detail: `page "${now.title}" (${now.path}) added`, breaking: false });
    else if (was.version !== now.version) changes.push({ kind: 'page version changed', page: id, detail: `page "${now.title}" version ${was.version} → ${now.version}`, breaking: false });
  }
  for (const id of Object.keys(oldPages)) {
    if (!newPages[id]) changes.push({ kind: 'page removed', page: id, detail: `page "${oldPages[id]!.title}" (${oldPages[id]!.path}) removed`, breaking: true });
  }

  const oldFields = before.model.fields, newFields = after.model.fields;
  const removed = Object.values(oldFields).filter((field) => !newFields[field.key]);
  const added = Object.values(newFields).filter((field) => !oldFields[field.key]);
  const renames = pairRenames(removed, added);
  for (const [from, to] of renames) {
    changes.push({ kind: 'question renamed', page: to.page, key: to.key, from: from.key, detail: `${describeField(to)} was ${from.key}: answers saved under ${from.key} are no longer read`, breaking: true });
    compareRules(before, after, from, to, changes);
  }
  for (const field of removed.filter((gone) => !renames.some(([from]) => from === gone))) {
    changes.push({ kind: 'question removed', page: field.page, key: field.key, detail: `${describeField(field)} removed`, breaking: true });
  }
  for (const field of added.filter((fresh) => !renames.some(([, to]) => to === fresh))) {
    const required = field.required ? ' (required)' : field.requiredWhen?.length ? ' (required under a rule)' : '';
    changes.push({ kind: 'question added', page: field.page, key: field.key, detail: `${describeField(field)} added${required}`, breaking: false });
  }
  for (const field of Object.values(newFields)) {
    const was = oldFields[field.key];
    if (!was) continue;
    if (was.page !== field.page) changes.push({ kind: 'question moved', page: field.page, key: field.key, detail: `${describeField(field)} moved from page ${was.page}`, breaking: false });
    compareRules(before, after, was, field, changes);
  }
  return changes;
}

/** Pages with a breaking change whose version was not raised: CI stops these. */
export function unbumpedPages(before: Form, after: Form, changes: SchemaChange[]): { page: string; version: number; file: string }[] {
  const pages = new Set(changes.filter((change) => change.breaking).map((change) => change.page));
  const result: { page: string; version: number; file: string }[] = [];
  for (const page of pages) {
    const was = (before.model.pages as Record<string, { version: number }>)[page];
    const now = (after.model.pages as Record<string, { version: number }>)[page];
    if (was && now && now.version <= was.version) result.push({ page, version: now.version, file: `schemas/pages/${page}.schema.json` });
  }
  return result;
}
