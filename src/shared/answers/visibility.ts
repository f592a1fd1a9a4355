import type { PageModel } from '../form/form-model.ts';
import { evaluateCondition, type Answers } from './conditions.ts';

/** The keys a page hides for these answers (spec "Conditional rules"). */
export function hiddenKeys(page: PageModel, answers: Answers): Set<string> {
  const hidden = new Set<string>();
  for (const rule of page.visibility) {
    if (evaluateCondition(answers, rule.when)) rule.keys.forEach((key) => hidden.add(key));
  }
  return hidden;
}

const cache = new WeakMap<Answers, Map<PageModel, ReadonlySet<string>>>();

/**
 * hiddenKeys, computed once per answers object: every section, repeater and block of a
 * page asks after each change, and the store makes a new answers object for each change.
 */
export function hiddenKeysOf(page: PageModel, answers: Answers): ReadonlySet<string> {
  let byPage = cache.get(answers);
  if (!byPage) cache.set(answers, (byPage = new Map()));
  let hidden = byPage.get(page);
  if (!hidden) byPage.set(page, (hidden = hiddenKeys(page, answers)));
  return hidden;
}
