import { optionsFor } from '../../../../shared/answers/option-rules.ts';
import type { Answers } from '../../../../shared/answers/conditions.ts';
import { form } from '../../../../shared/form/form-model-data.ts';
import frame from '../../../../../schemas/text/frame.json';
import { fillTemplate } from '../../../../shared/text/fill-template.ts';
import { formatPhone } from '../../../../shared/text/formatters.ts';

/** Dates and month-year pairs as the page's language writes them (schemas/text/frame.json "formats"): day first in Spanish. */
export const formats = frame.formats;

/** An answer as the printable view shows it: labels for codes, dates in the language's order, formatted phones. */
export function displayValue(key: string, value: unknown, answers: Answers): string {
  if (value === undefined || value === null || value === '') return '';
  const field = form.fields[key];
  if (field?.options || field?.years) {
    return optionsFor(form, key, answers, []).find((item) => item.value === value)?.label ?? String(answers[`${key}_desc`] ?? value);
  }
  if (field?.type === 'date' && typeof value === 'string') {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    return match ? fillTemplate(formats.date, { year: match[1]!, month: match[2]!, day: match[3]! }) : value;
  }
  if (field?.type === 'phone') return formatPhone(String(value));
  return String(value);
}

export const mark = (checked: boolean) => (checked ? '[X]' : '[ ]');
