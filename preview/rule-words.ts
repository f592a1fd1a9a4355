/**
 * A visibility or required rule in words, from the schema labels: "Citizen Type is
 * Not a U.S. citizen… and Are you currently on…? is Yes". The form model stores what
 * hides a question (`ui:hideWhen`); staff read what shows it, so the rule is turned round.
 */
import type { AnswerValue, Condition, Operator } from '../src/shared/answers/conditions.ts';
import type { FormModel } from '../src/shared/form/form-model.ts';
import { fillTemplate } from '../src/shared/text/fill-template.ts';
import text from './preview-text.json';

const words = text.condition;

/** The opposite operator; for comparisons only where the answer is a number. */
const OPPOSITE: Record<Operator, Operator> = {
  equals: 'notEquals', notEquals: 'equals', in: 'notIn', notIn: 'in', answered: 'notAnswered', notAnswered: 'answered',
  lt: 'gte', gte: 'lt', lte: 'gt', gt: 'lte',
};

/** The condition that holds exactly when `condition` does not (De Morgan for groups). */
export function opposite(condition: Condition): Condition {
  if ('all' in condition) return { any: condition.all.map(opposite) };
  if ('any' in condition) return { all: condition.any.map(opposite) };
  const turned: Condition = { ...condition, op: OPPOSITE[condition.op] };
  // a comparison of numbers fails both ways on a blank answer: its opposite holds there
  if (['lt', 'lte', 'gt', 'gte'].includes(condition.op)) return { any: [{ key: condition.key, op: 'notAnswered' }, turned] };
  return turned;
}

function valueWords(model: FormModel, key: string, value: AnswerValue): string {
  if (value === '') return words.blank;
  if (typeof value === 'boolean') return value ? words.checked : words.unchecked;
  const field = model.fields[key];
  // a document's answer is only a mark that a file was given
  if (field?.type === 'document') return words.uploaded;
  const option = field?.options ? model.options[field.options]?.find((item) => item.value === value) : undefined;
  return option?.label ?? value;
}

function listWords(items: string[]): string {
  if (items.length < 2) return items.join('');
  return `${items.slice(0, -1).join(words.list_and)}${words.list_last}${items[items.length - 1]}`;
}

/** One condition in words; groups inside groups are bracketed. */
export function conditionWords(model: FormModel, condition: Condition, nested = false): string {
  if ('all' in condition || 'any' in condition) {
    const parts = 'all' in condition ? condition.all : condition.any;
    const joined = parts.map((part) => conditionWords(model, part, true)).join('all' in condition ? words.and : words.or);
    return nested && parts.length > 1 ? `(${joined})` : joined;
  }
  const label = model.fields[condition.key]?.title ?? condition.key;
  // a checkbox that is (not) checked reads better without "is"
  if (typeof condition.value === 'boolean' && (condition.op === 'equals' || condition.op === 'notEquals')) {
    const checked = (condition.op === 'equals') === condition.value;
    return `${label} ${checked ? words.checked : words.unchecked}`;
  }
  const values = Array.isArray(condition.value) ? condition.value : condition.value === undefined ? [] : [condition.value];
  return fillTemplate(words[condition.op], { label, value: listWords(values.map((value) => valueWords(model, condition.key, value))) });
}

/** What shows the questions a rule hides while `hideWhen` holds. */
export function shownWhenWords(model: FormModel, hideWhen: Condition): string {
  return conditionWords(model, opposite(hideWhen));
}
