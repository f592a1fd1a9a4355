import type { FormModel, OptionRule, VisibilityRule } from '../form/form-model.ts';
import { evaluateCondition, isAnswered, type AnswerValue, type Answers } from './conditions.ts';
import { descKey } from './key-naming.ts';
import { activeGroup, optionsFor } from './option-rules.ts';

export type Changes = Record<string, AnswerValue>;

/**
 * Applies an applicant's changes and everything they imply (spec section 4, "Conditional
 * rules"): the `_desc` companion of a coded answer; a dependent select cleared when its
 * controlling answer changes; answers cleared when their section becomes hidden. Returns
 * every key that changed, so a save can send exactly those.
 */
export function applyChanges(form: FormModel, answers: Answers, changes: Changes): { answers: Record<string, AnswerValue>; changed: Changes } {
  // answers are shared by every page: a change on one page can clear answers on another
  const { optionRules, visibility } = allRules(form);
  const next: Record<string, AnswerValue> = { ...(answers as Record<string, AnswerValue>) };
  const changed: Changes = {};
  const set = (key: string, value: AnswerValue) => {
    if ((next[key] ?? '') === value) return;
    next[key] = value;
    changed[key] = value;
  };

  for (const [key, value] of Object.entries(changes)) {
    set(key, value);
    const field = form.fields[key];
    if (field && (field.options || field.years)) {
      const label = isAnswered(value) ? optionsFor(form, key, next, []).find((item) => item.value === value)?.label ?? '' : '';
      set(descKey(key), label);
    }
  }

  // rules can trigger one another (a cleared answer hides another block): a few passes settle them
  for (let pass = 0; pass < 5; pass++) {
    const before = Object.keys(changed).length;
    for (const rule of optionRules) {
      if (!(rule.controller in changed) || rule.key in changes) continue;
      const current = next[rule.key];
      if (!isAnswered(current)) continue;
      const previousAnswers = { ...next, [rule.controller]: answers[rule.controller] ?? '' };
      const clear = rule.clear === 'change'
        || (rule.clear === 'group' && activeGroup(rule, previousAnswers) !== activeGroup(rule, next))
        || (rule.clear === 'invalid' && !optionsFor(form, rule.key, next, optionRules).some((item) => item.value === current));
      if (clear) {
        set(rule.key, '');
        set(descKey(rule.key), '');
      }
    }
    for (const rule of visibility) {
      if (!evaluateCondition(next, rule.when) || evaluateCondition(answers, rule.when)) continue;
      for (const key of rule.clear) if (next[key] !== undefined) set(key, '');
    }
    if (Object.keys(changed).length === before) break;
  }
  return { answers: next, changed };
}

const rulesCache = new WeakMap<FormModel, { optionRules: OptionRule[]; visibility: VisibilityRule[] }>();

function allRules(form: FormModel) {
  let rules = rulesCache.get(form);
  if (!rules) {
    const pages = form.pageOrder.map((id) => form.pages[id]);
    rules = { optionRules: pages.flatMap((page) => page.optionRules), visibility: pages.flatMap((page) => page.visibility) };
    rulesCache.set(form, rules);
  }
  return rules;
}
