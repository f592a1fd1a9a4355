import { optionsFor } from '../../../../shared/answers/option-rules.ts';
import type { Answers } from '../../../../shared/answers/conditions.ts';
import { form } from '../../../../shared/form/form-model-data.ts';
import { formatPhone } from '../../../../shared/text/formatters.ts';

/** An answer as the printable view shows it: labels for codes, MM/DD/YYYY dates, formatted phones. */
export function displayValue(key: string, value: unknown, answers: Answers): string {
  if (value === undefined || value === null || value === '') return '';
  const field = form.fields[key];
  if (field?.options || field?.years) {
    return optionsFor(form, key, answers, []).find((item) => item.value === value)?.label ?? String(answers[`${key}_desc`] ?? value);
  }
  if (field?.type === 'date' && typeof value === 'string') {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    return match ? `${match[2]}/${match[3]}/${match[1]}` : value;
  }
  if (field?.type === 'phone') return formatPhone(String(value));
  return String(value);
}

export const mark = (checked: boolean) => (checked ? '[X]' : '[ ]');
