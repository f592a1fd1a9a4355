/**
 * Conditions on answers, in the spec's operator vocabulary (section 3, "Conditional
 * operators on answers"). One evaluator serves visibility in the browser and the
 * `when` keyword of the validators on both sides.
 */
export type Operator = 'equals' | 'notEquals' | 'lt' | 'lte' | 'gt' | 'gte' | 'answered' | 'notAnswered' | 'in' | 'notIn';

export type AnswerValue = string | boolean;
export type Answers = Readonly<Record<string, AnswerValue | undefined>>;

export type Condition =
  | { key: string; op: Operator; value?: AnswerValue | AnswerValue[] }
  | { all: Condition[] }
  | { any: Condition[] };

export const OPERATORS: readonly Operator[] = ['equals', 'notEquals', 'lt', 'lte', 'gt', 'gte', 'answered', 'notAnswered', 'in', 'notIn'];

/** An answer counts as given unless it is missing, null or the empty string. */
export function isAnswered(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

function compare(value: unknown, target: unknown): number | undefined {
  const left = Number(value);
  const right = Number(target);
  if (!isAnswered(value) || Number.isNaN(left) || Number.isNaN(right)) return undefined;
  return left - right;
}

export function evaluateCondition(answers: Answers, condition: Condition): boolean {
  if ('all' in condition) return condition.all.every((part) => evaluateCondition(answers, part));
  if ('any' in condition) return condition.any.some((part) => evaluateCondition(answers, part));
  const value = answers[condition.key];
  const target = condition.value;
  switch (condition.op) {
    case 'answered': return isAnswered(value);
    case 'notAnswered': return !isAnswered(value);
    case 'equals': return value === target;
    case 'notEquals': return value !== target;
    case 'in': return Array.isArray(target) && target.includes(value ?? '');
    case 'notIn': return !(Array.isArray(target) && target.includes(value ?? ''));
    case 'lt': { const d = compare(value, target); return d !== undefined && d < 0; }
    case 'lte': { const d = compare(value, target); return d !== undefined && d <= 0; }
    case 'gt': { const d = compare(value, target); return d !== undefined && d > 0; }
    case 'gte': { const d = compare(value, target); return d !== undefined && d >= 0; }
  }
}

/** Every answer key a condition reads. */
export function conditionKeys(condition: Condition): string[] {
  if ('all' in condition) return condition.all.flatMap(conditionKeys);
  if ('any' in condition) return condition.any.flatMap(conditionKeys);
  return [condition.key];
}
