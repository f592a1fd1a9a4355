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
