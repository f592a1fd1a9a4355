/**
 * A visibility or required rule in words, from the schema labels: "Citizen Type is
 * Not a U.S. citizen… and Are you currently on…? is Yes". The form model stores what
 * hides a question (`ui:hideWhen`); staff read what shows it, so the rule is turned round.
 * The words are in the language of the texts the preview shows (its "Texts in" choice),
 * and a rule that can never be true says so, with why: an operator the form does not know,
 * a value no answer can have (a label where the answer is stored as its code).
 */
import { OPERATORS, type AnswerValue, type Condition, type Operator } from '../src/shared/answers/conditions.ts';
import type { FormModel } from '../src/shared/form/form-model.ts';
import { fillTemplate } from '../src/shared/text/fill-template.ts';
import text from './preview-text.json';

type RuleTexts = Pick<typeof text, 'conditional_section' | 'shown_when' | 'required_when' | 'never_shown' | 'always_shown' | 'never_required' | 'broken_rule'
  | 'reason_unknown_op' | 'reason_not_a_code' | 'reason_not_boolean' | 'condition'>;

/** The rule texts in `language` (English unless the preview has them in it). */
export function ruleTexts(language = typeof document === 'undefined' ? 'en' : document.documentElement.lang): RuleTexts {
  const translated = (text as unknown as Record<string, Partial<RuleTexts> | undefined>)[language];
  return { ...text, ...translated, condition: { ...text.condition, ...translated?.condition } };
}

/** The opposite operator; for comparisons only where the answer is a number. */
const OPPOSITE: Record<Operator, Operator> = {
  equals: 'notEquals', notEquals: 'equals', in: 'notIn', notIn: 'in', answered: 'notAnswered', notAnswered: 'answered',
  lt: 'gte', gte: 'lt', lte: 'gt', gt: 'lte',
};

/** The condition that holds exactly when `condition` does not (De Morgan for groups). */
export function opposite(condition: Condition): Condition {
  if ('all' in condition) return { any: condition.all.map(opposite) };
  if ('any' in condition) return { all: condition.any.map(opposite) };
  // an operator the form does not know stays as written (neverTrue says what it does)
  const turned: Condition = { ...condition, op: OPPOSITE[condition.op] ?? condition.op };
  // a comparison of numbers fails both ways on a blank answer: its opposite holds there
  if (['lt', 'lte', 'gt', 'gte'].includes(condition.op)) return { any: [{ key: condition.key, op: 'notAnswered' }, turned] };
  return turned;
}

function valueWords(model: FormModel, key: string, value: AnswerValue, words: RuleTexts['condition']): string {
  if (value === '') return words.blank;
  if (typeof value === 'boolean') return value ? words.checked : words.unchecked;
  const field = model.fields[key];
  // a document's answer is only a mark that a file was given
  if (field?.type === 'document') return words.uploaded;
  const option = field?.options ? model.options[field.options]?.find((item) => item.value === value) : undefined;
  return option?.label ?? String(value);
}

function listWords(items: string[], words: RuleTexts['condition']): string {
  if (items.length < 2) return items.join('');
  return `${items.slice(0, -1).join(words.list_and)}${words.list_last}${items[items.length - 1]}`;
}

/** One condition in words; groups inside groups are bracketed. */
export function conditionWords(model: FormModel, condition: Condition, nested = false, texts = ruleTexts()): string {
  const words = texts.condition;
  if ('all' in condition || 'any' in condition) {
    const parts = 'all' in condition ? condition.all : condition.any;
    const joined = parts.map((part) => conditionWords(model, part, true, texts)).join('all' in condition ? words.and : words.or);
    return nested && parts.length > 1 ? `(${joined})` : joined;
  }
  const label = model.fields[condition.key]?.title ?? condition.key;
  // a checkbox that is (not) checked reads better without "is"
  if (typeof condition.value === 'boolean' && (condition.op === 'equals' || condition.op === 'notEquals')) {
    const checked = (condition.op === 'equals') === condition.value;
    return `${label} ${checked ? words.checked : words.unchecked}`;
  }
  const values = Array.isArray(condition.value) ? condition.value : condition.value === undefined ? [] : [condition.value];
  const template = (words as Record<string, string>)[condition.op] ?? words.unknown;
  return fillTemplate(template, { label, op: String(condition.op), value: listWords(values.map((value) => valueWords(model, condition.key, value, words)), words) }).trim();
}

/** What shows the questions a rule hides while `hideWhen` holds. */
export function shownWhenWords(model: FormModel, hideWhen: Condition, texts = ruleTexts()): string {
  return conditionWords(model, opposite(hideWhen), false, texts);
}

/**
 * Why a condition can never be true, in words; undefined when it can be. An answer is
 * compared as it is stored: an option's code, true or false for a check box, "" for none.
 */
export function neverTrue(model: FormModel, condition: Condition, texts = ruleTexts()): string | undefined {
  if ('all' in condition) return condition.all.map((part) => neverTrue(model, part, texts)).find(Boolean);
  if ('any' in condition) {
    const reasons = condition.any.map((part) => neverTrue(model, part, texts));
    return reasons.every(Boolean) ? reasons.join('; ') : undefined;
  }
  const field = model.fields[condition.key];
  const label = field?.title ?? condition.key;
  if (!(OPERATORS as readonly string[]).includes(condition.op)) return fillTemplate(texts.reason_unknown_op, { op: String(condition.op) });
  if (condition.op !== 'equals' && condition.op !== 'in') return undefined;
  const values = Array.isArray(condition.value) ? condition.value : [condition.value];
  if (field?.type === 'boolean') {
    return values.some((value) => typeof value === 'boolean' || value === '') ? undefined
      : fillTemplate(texts.reason_not_boolean, { label, value: values.map((value) => JSON.stringify(value)).join(', ') });
  }
  const codes = field?.options ? (model.options[field.options] ?? []).map((item) => item.value) : undefined;
  if (!codes) return undefined; // free text: any value may be typed
  if (values.some((value) => value === '' || (typeof value === 'string' && codes.includes(value)))) return undefined;
  const listed = codes.length > 8 ? `${codes.slice(0, 8).map((code) => `"${code}"`).join(', ')}, …` : codes.map((code) => `"${code}"`).join(', ');
  return fillTemplate(texts.reason_not_a_code, { label, value: values.map((value) => JSON.stringify(value)).join(', '), codes: listed });
}

/** The operators of a condition the form does not know, each in words. */
export function unknownOperators(condition: Condition, texts = ruleTexts()): string[] {
  if ('all' in condition) return condition.all.flatMap((part) => unknownOperators(part, texts));
  if ('any' in condition) return condition.any.flatMap((part) => unknownOperators(part, texts));
  return (OPERATORS as readonly string[]).includes(condition.op) ? [] : [fillTemplate(texts.reason_unknown_op, { op: String(condition.op) })];
}

/**
 * A visibility rule for staff: what shows its questions, or that they are always or never
 * shown, or that the rule cannot work as written, and why. `never`: it cannot work as meant.
 */
export function visibilityWords(model: FormModel, hideWhen: Condition, texts = ruleTexts()): { words: string; never: boolean } {
  const hideNever = neverTrue(model, hideWhen, texts);
  if (hideNever) return { words: fillTemplate(texts.always_shown, { reason: hideNever }), never: true };
  // an unknown operator inside a group: its condition is taken as false, the rest as written
  const unknown = unknownOperators(hideWhen, texts);
  if (unknown.length) return { words: fillTemplate(texts.broken_rule, { reason: unknown.join('; ') }), never: true };
  const shown = opposite(hideWhen);
  const shownNever = neverTrue(model, shown, texts);
  const words = fillTemplate(texts.shown_when, { condition: conditionWords(model, shown, false, texts) });
  return shownNever ? { words: `${words}. ${fillTemplate(texts.never_shown, { reason: shownNever })}`, never: true } : { words, never: false };
}
