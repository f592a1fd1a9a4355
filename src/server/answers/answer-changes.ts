import apiMessages from '../../../schemas/text/api-messages.json';
import { endpoints } from '../../shared/api/contract.ts';
import { descKey, DESC_SUFFIX } from '../../shared/answers/key-naming.ts';
import { optionLabelsOf } from '../../shared/answers/option-rules.ts';
import { characterCount, maxLengthsOf } from '../../shared/form/field-limits.ts';
import { form } from '../../shared/form/form-model-data.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { toE164 } from '../../shared/text/phone-international.ts';
import type { SaveAnswersBody } from '../../shared/generated/api-types.ts';
import type { SaveBasis, StoredValue } from '../db/repositories/answer-repository.ts';
import { HttpError } from '../lib/http-error.ts';


/** How far ahead of the server's clock a change's clock is believed (clocks of devices differ by seconds). */
export const CLOCK_AHEAD_MS = 60_000;

/** The API's bound on any one text (a save's contract), for a question whose schema gives no maxLength. */
const ANY_TEXT_MAX = (endpoints.saveAnswers!.body as { additionalProperties: { maxLength: number } }).additionalProperties.maxLength;

/** A text within its question's own maxLength (the form's schema), else within the API's bound. */
function fitsLength(key: string, value: string): boolean {
  const max = maxLengthsOf(form).get(key) ?? ANY_TEXT_MAX;
  return value.length <= max || characterCount(value) <= max;
}

/**
 * Checks a save from the browser, or answers carried into a sign-up, and turns them into
 * what is stored: known keys only, the right type and length (the question's own
 * maxLength), documents left to the converter (spec-decisions 2), and each `_desc`
 * companion recomputed from the schema (labels cannot be forged).
 */
export function storedChanges(body: SaveAnswersBody, now = Date.now()): {
  values: Record<string, StoredValue>; versions: Record<string, number>; clocks: Record<string, number>; basis: SaveBasis;
} {
  // its shape (at most 400 texts or booleans, their clocks and what the page had seen) the contract checked (schemas/api/application.json)
  const { _clock: clock = {}, _seen: seenByPage, _writer: writer, ...answers } = body;
  const entries = Object.entries(answers);

  // own keys only: "toString" or "constructor" are not questions (they used to reach the store as undefined fields: a 500)
  const isField = (key: string) => Object.hasOwn(form.fields, key);
  const unknown = entries.map(([key]) => key).filter((key) => !isField(key) && !(key.endsWith(DESC_SUFFIX) && isField(key.slice(0, -DESC_SUFFIX.length))));
  if (unknown.length) {
    throw new HttpError(400, fillTemplate(apiMessages.unknown_keys, { keys: unknown.slice(0, 10).join(', ') }), { code: 'UNKNOWN_KEYS' });
  }

  const values: Record<string, StoredValue> = {};
  const versions: Record<string, number> = {};
  const clocks: Record<string, number> = {};
  // a page that says what it saw has every key it sends judged by it; a key it has no entry for it saw empty (0)
  const seen: Record<string, number> = {};
  for (const [key, value] of entries) {
    const field = isField(key) ? form.fields[key] : undefined;
    if (!field || field.type === 'document') continue; // companions and documents are the server's to write
    const bad = () => new HttpError(400, fillTemplate(apiMessages.bad_answer, { key }), { code: 'BAD_ANSWER', errors: { [key]: [fillTemplate(apiMessages.bad_answer, { key })] } });
    if (field.type === 'boolean' ? !(value === true || value === false || value === '') : typeof value !== 'string') throw bad();
    const version = form.pages[field.page].version;
    // a number abroad is checked and kept in E.164, however it was written (spec-decisions 17)
    const international = field.widget === 'internationalPhone' || (field.type === 'phone' && typeof value === 'string' && value.trim().startsWith('+'));
    const stored = international ? toE164(value as string) : value as StoredValue;
    // the question's own limit holds for what is stored: "+44 (20) 7946-0958" is kept as 13 characters
    if (typeof stored === 'string' && !fitsLength(key, stored)) throw bad();
    values[key] = stored;
    versions[key] = version;
    // a device whose clock runs far ahead would otherwise make its answers unchangeable from any other
    clocks[key] = Object.hasOwn(clock, key) ? Math.min(clock[key]!, now + CLOCK_AHEAD_MS) : now;
    if (seenByPage) seen[key] = Object.hasOwn(seenByPage, key) ? seenByPage[key]! : 0;
    if (field.options || field.years) {
      const label = value === '' ? '' : optionLabelsOf(form, key).get(value as string) ?? '';
      values[descKey(key)] = label;
      versions[descKey(key)] = version;
      clocks[descKey(key)] = clocks[key]!; // the label goes with its answer
      if (seenByPage) seen[descKey(key)] = seen[key]!;
    }
  }
  return { values, versions, clocks, basis: { writer: seenByPage ? writer ?? null : null, seen } };
}
