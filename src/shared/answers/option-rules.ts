import type { FormModel, OptionItem, OptionRule } from '../form/form-model.ts';
import { evaluateCondition, type Answers } from './conditions.ts';
import { yearRange } from '../validation/keyword-runtime.ts';

/** The group of a conditional select that applies to these answers (-1: none). */
export function activeGroup(rule: OptionRule, answers: Answers): number {
  return (rule.groups ?? []).findIndex((group) => evaluateCondition(answers, group.when));
}

/** The options a field offers for these answers: its list, minus exclusions, narrowed by its rules. */
export function optionsFor(form: FormModel, key: string, answers: Answers, rules: readonly OptionRule[]): OptionItem[] {
  const field = form.fields[key];
  if (!field) return [];
  let items: OptionItem[];
  if (field.years) {
    const { first, last } = yearRange(field.years);
    const years: number[] = [];
    if (field.years.direction === 'past') for (let year = last; year >= first; year--) years.push(year);
    else for (let year = first; year <= last; year++) years.push(year);
    items = years.map((year) => ({ value: String(year), label: String(year) }));
  } else {
    items = (form.options[field.options ?? ''] ?? []).filter((item) => !field.exclude?.includes(item.value));
  }
  for (const rule of rules) {
    if (rule.key !== key) continue;
    const group = rule.groups?.[activeGroup(rule, answers)];
    if (group?.only) items = items.filter((item) => group.only!.includes(item.value));
    if (group?.except) items = items.filter((item) => !group.except!.includes(item.value));
    if (rule.filter) {
      const controlling = rule.controller ? String(answers[rule.controller] ?? '') : '';
      const wanted = controlling ? [controlling] : rule.filter.when_blank;
      items = items.filter((item) => wanted.includes(String(item.attributes?.[rule.filter!.attribute] ?? '')));
    }
  }
  return items;
}

/** Per form model, each list's labels by value, with the year range they were made for ('' for a fixed list). */
const labelMaps = new WeakMap<FormModel, Map<string, { range: string; labels: ReadonlyMap<string, string> }>>();

/**
 * A list or year question's labels by value, as optionsFor offers them with no rule
 * narrowing them (the labels a `_desc` stores): made once per list, and again for a year
 * list when the year turns.
 */
export function optionLabelsOf(form: FormModel, key: string): ReadonlyMap<string, string> {
  const years = form.fields[key]?.years;
  const range = years ? JSON.stringify(yearRange(years)) : '';
  let byKey = labelMaps.get(form);
  if (!byKey) labelMaps.set(form, (byKey = new Map()));
  const made = byKey.get(key);
  if (made?.range === range) return made.labels;
  const labels = new Map(optionsFor(form, key, {}, []).map((item) => [item.value, item.label]));
  byKey.set(key, { range, labels });
  return labels;
}
