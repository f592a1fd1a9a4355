import { conditionKeys } from '../answers/conditions.ts';
import { instanceKey } from '../answers/key-naming.ts';
import type { FormModel } from './form-model.ts';

/**
 * The development-only checks of spec section 5 as the running app can make them: on the
 * generated form, the tenant data model and the configured steps. `npm run check:schemas`
 * makes them (and more) on the schema files; these catch a build that skipped it.
 */
export type ConfigurationKind = 'missing configuration' | 'bad configuration' | 'extra keys' | 'prefix not part of key' | 'add-another maximum';

export interface ConfigurationProblem {
  kind: ConfigurationKind;
  message: string;
}

/** spec section 9: an add-another may repeat at most 10 times */
export const ADD_ANOTHER_MAXIMUM = 10;

export interface DataModelKeys {
  keys: Record<string, { instances?: number; prefix?: string }>;
}

function dataModelKeys(model: DataModelKeys, problems: ConfigurationProblem[]): Set<string> {
  const keys = new Set<string>();
  for (const [key, entry] of Object.entries(model.keys)) {
    for (let n = 1; n <= (entry.instances ?? 1); n++) {
      try {
        keys.add(instanceKey(key, entry.prefix ?? key, n));
      } catch {
        problems.push({ kind: 'prefix not part of key', message: `"${key}": its prefix "${entry.prefix}" does not start it` });
        break;
      }
    }
  }
  return keys;
}

export function configurationProblems(form: FormModel, model: DataModelKeys, steps: readonly { path: string }[], defaultRoute: string): ConfigurationProblem[] {
  const problems: ConfigurationProblem[] = [];
  const known = dataModelKeys(model, problems);
  const pages = form.pageOrder.map((id) => form.pages[id]);
  for (const step of steps) {
    if (!pages.some((page) => page.path === step.path)) problems.push({ kind: 'missing configuration', message: `the step "${step.path}" has no page` });
  }
  if (!steps.some((step) => step.path === defaultRoute)) problems.push({ kind: 'missing configuration', message: `the default route "${defaultRoute}" is not a step` });

  const pageOf = new Map<string, string>();
  for (const page of pages) {
    for (const key of page.keys) {
      if (!known.has(key)) problems.push({ kind: 'bad configuration', message: `"${key}" (${page.id}) is not in the tenant data model` });
      const other = pageOf.get(key);
      if (other && other !== page.id) problems.push({ kind: 'bad configuration', message: `"${key}" is asked on ${other} and ${page.id}` });
      pageOf.set(key, page.id);
    }
    for (const repeater of page.repeaters) {
      if (repeater.max > ADD_ANOTHER_MAXIMUM) problems.push({ kind: 'add-another maximum', message: `"${repeater.button_id}" repeats ${repeater.max} times (at most ${ADD_ANOTHER_MAXIMUM})` });
    }
  }
  // rules may name only keys some page asks
  const asked = (key: string) => pageOf.has(key) || (key.endsWith('_desc') && pageOf.has(key.slice(0, -5)));
  for (const page of pages) {
    const named = [
      ...page.visibility.flatMap((rule) => [...conditionKeys(rule.when), ...rule.keys, ...rule.clear]),
      ...page.optionRules.flatMap((rule) => [rule.key, rule.controller]),
    ];
    for (const key of new Set(named)) if (!asked(key)) problems.push({ kind: 'extra keys', message: `a rule of ${page.id} names "${key}", which no page asks` });
  }
  return problems;
}
