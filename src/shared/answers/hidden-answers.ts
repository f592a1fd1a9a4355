import type { FormModel, VisibilityRule } from '../form/form-model.ts';
import { applyChanges, type Changes } from './apply-changes.ts';
import { conditionKeys, evaluateCondition, isAnswered, type Answers } from './conditions.ts';

const controllersCache = new WeakMap<FormModel, { rules: VisibilityRule[]; controllers: Set<string> }>();

function visibilityOf(form: FormModel) {
  let cached = controllersCache.get(form);
  if (!cached) {
    const rules = form.pageOrder.flatMap((id) => form.pages[id].visibility);
    cached = { rules, controllers: new Set(rules.flatMap((rule) => conditionKeys(rule.when))) };
    controllersCache.set(form, cached);
  }
  return cached;
}

const ruleControllersCache = new WeakMap<FormModel, ReadonlySet<string>>();

/** The answers a conditional rule reads: what they are shows, hides or narrows other questions. */
export function ruleControllers(form: FormModel): ReadonlySet<string> {
  let keys = ruleControllersCache.get(form);
  if (!keys) {
    const optionControllers = form.pageOrder.flatMap((id) => form.pages[id].optionRules).map((rule) => rule.controller);
    keys = new Set([...visibilityOf(form).controllers, ...optionControllers]);
    ruleControllersCache.set(form, keys);
  }
  return keys;
}

/** An answer the applicant gave: an unticked box is not one. */
const entered = (value: unknown) => isAnswered(value) && value !== false;

/**
 * The answers an applicant entered that these changes would hide, and so erase (the
 * schema's conditional rules, followed through as applyChanges does): what must be asked
 * before an arrow key in a radio group or "Clear answer" removes a block of saved answers.
 * Companions (`_desc`) are not counted: they go with their answer.
 */
export function answersHiddenBy(form: FormModel, answers: Answers, changes: Changes): string[] {
  const { rules, controllers } = visibilityOf(form);
  // typing in a text box changes no rule: answered without running the rules
  if (!Object.keys(changes).some((key) => controllers.has(key))) return [];
  const next = applyChanges(form, answers, changes).answers;
  const hidden = new Set<string>();
  for (const rule of rules) {
    if (!evaluateCondition(next, rule.when) || evaluateCondition(answers, rule.when)) continue;
    for (const key of rule.keys) if (!(key in changes) && entered(answers[key]) && !entered(next[key])) hidden.add(key);
  }
  return [...hidden];
}

/** The add-another groups these answers hide entirely: their count goes back to one, or empty items would stay counted. */
export function repeatersHiddenBy(form: FormModel, answers: Answers): string[] {
  const { rules } = visibilityOf(form);
  const hidden = new Set(rules.filter((rule) => evaluateCondition(answers, rule.when)).flatMap((rule) => rule.keys));
  return form.pageOrder.flatMap((id) => form.pages[id].repeaters)
    .filter((repeater) => repeater.instances[0]!.every((key) => hidden.has(key)))
    .map((repeater) => repeater.button_id);
}
