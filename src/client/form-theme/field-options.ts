import { optionsFor } from '../../shared/answers/option-rules.ts';
import { form } from '../../shared/form/form-model-data.ts';
import type { OptionItem } from '../../shared/form/form-model.ts';
import type { FormContext } from './form-context.ts';

/** The options a list or choice question offers now: its list narrowed by its page's option rules. */
export function fieldOptions(name: string, context: FormContext): OptionItem[] {
  const field = form.fields[name];
  return optionsFor(form, name, context.answers, field ? form.pages[field.page].optionRules : []);
}
