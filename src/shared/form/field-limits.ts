import type { FormModel } from './form-model.ts';

const cache = new WeakMap<FormModel, Map<string, number>>();

/**
 * Each answer's longest length as the form's own schema gives it (`maxLength` of the
 * question wherever it sits in a page's schema), for the checks of every write path: the
 * browser's rules are the server's too. Questions without one are left to the API's bound.
 */
export function maxLengthsOf(form: FormModel): Map<string, number> {
  let lengths = cache.get(form);
  if (lengths) return lengths;
  lengths = new Map();
  const found = lengths;
  const stack: unknown[] = [form.pages];
  while (stack.length) {
    const item = stack.pop();
    if (!item || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      stack.push(...item);
      continue;
    }
    const properties = (item as { properties?: unknown }).properties;
    if (properties && typeof properties === 'object' && !Array.isArray(properties)) {
      for (const [key, rule] of Object.entries(properties)) {
        const max = (rule as { maxLength?: unknown } | null)?.maxLength;
        if (Object.hasOwn(form.fields, key) && typeof max === 'number') found.set(key, Math.min(max, found.get(key) ?? max));
      }
    }
    stack.push(...Object.values(item));
  }
  cache.set(form, found);
  return found;
}

/** The length JSON Schema's maxLength counts: characters, a pair of surrogates being one. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
