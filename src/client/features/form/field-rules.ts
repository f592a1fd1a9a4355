import { optionsFor } from '../../../shared/answers/option-rules.ts';
import { evaluateCondition, type Answers } from '../../../shared/answers/conditions.ts';
import { form } from '../../../shared/form/form-model-data.ts';
import type { OptionItem } from '../../../shared/form/form-model.ts';

/**
 * What the form model says of a question now, handed to the theme through formContext:
 * its choices (the list narrowed by its page's option rules) and whether it is required
 * (always, or under a condition on other answers, as the schema's if/then says), and the
 * message for a value its page's validators refuse (loaded only when first asked).
 */
export function choicesNow(key: string, answers: Answers): OptionItem[] | undefined {
  const field = form.fields[key];
  if (!field?.options && !field?.years) return undefined;
  return optionsFor(form, key, answers, form.pages[field.page].optionRules);
}

export function requiredNow(key: string, answers: Answers): boolean {
  const field = form.fields[key];
  return Boolean(field?.required || field?.requiredWhen?.some((condition) => evaluateCondition(answers, condition)));
}

export async function checkAnswer(key: string, value: string): Promise<string | undefined> {
  const page = form.fields[key]?.page;
  if (!page) return undefined;
  const { checkOneAnswer } = await import('../../../shared/validation/page-validation.ts');
  return checkOneAnswer(page, key, value);
}
