import { conditionKeys } from '../../../shared/answers/conditions.ts';
import { form } from '../../../shared/form/form-model-data.ts';
import type { PageModel } from '../../../shared/form/form-model.ts';

/**
 * What questions read besides their own answers: the answers their visibility, option and
 * required rules depend on.
 */
export function ruleKeysOf(page: PageModel, questionKeys: readonly string[]): string[] {
  const own = new Set(questionKeys);
  const keys = new Set<string>();
  for (const rule of page.visibility) if (rule.keys.some((key) => own.has(key))) conditionKeys(rule.when).forEach((key) => keys.add(key));
  for (const rule of page.optionRules) {
    if (!own.has(rule.key)) continue;
    if (rule.controller) keys.add(rule.controller);
    rule.groups?.forEach((group) => conditionKeys(group.when).forEach((key) => keys.add(key)));
  }
  for (const key of questionKeys) form.fields[key]?.requiredWhen?.forEach((condition) => conditionKeys(condition).forEach((item) => keys.add(item)));
  return [...keys];
}
