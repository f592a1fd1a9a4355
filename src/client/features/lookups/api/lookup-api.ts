import { callEndpoint } from '../../../lib/api-client.ts';

/** The look-up lists of GET /lookup/find (spec section 7). */
export type LookupCategory = 'hs_ceeb' | 'college_ceeb' | 'address';

/** One suggestion: a school's name over "City, ST", or a ZIP over its city. */
export interface Suggestion {
  text: string;
  id: string;
  sub_text: string;
}

/** The record a choice fills in; `name`, `address_line_1` and `ceeb` are null for an address. */
export interface LookupRecord {
  name: string | null;
  address_line_1: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  ceeb: string | null;
  country: string | null;
}

export const MAX_SUGGESTIONS = 5;

/** Answers already seen, by category and text: typing back over a word asks nothing again. */
const cache = new Map<string, Suggestion[]>();
const CACHE_LIMIT = 300;

function isSuggestion(item: unknown): item is Suggestion {
  const value = item as Partial<Suggestion> | null;
  return typeof value?.text === 'string' && typeof value.id === 'string';
}

/**
 * Suggestions for typed text. A failed call (server down, rate limit, unknown category)
 * answers an empty list, as the spec says: the applicant can still use the typed text.
 */
export async function findSuggestions(category: LookupCategory, text: string, options: { signal?: AbortSignal; max?: number } = {}): Promise<Suggestion[]> {
  const typed = text.trim();
  if (!typed) return [];
  const max = options.max ?? MAX_SUGGESTIONS;
  const key = `${category}\n${max}\n${typed.toLowerCase()}`;
  const known = cache.get(key);
  if (known) return known;
  try {
    const body: unknown = await callEndpoint('findLookups', { query: { text: typed, category, max_results: String(max) } }, { signal: options.signal });
    const items = Array.isArray(body) ? body.filter(isSuggestion).map((item) => ({ text: item.text, id: item.id, sub_text: String(item.sub_text ?? '') })) : [];
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(key, items);
    return items;
  } catch {
    return [];
  }
}

/** The full record of a chosen suggestion; throws when it cannot be had (the caller keeps the label). */
export async function findRecord(category: LookupCategory, id: string): Promise<LookupRecord> {
  const body = await callEndpoint('findLookups', { query: { id, category } }) as Partial<LookupRecord> | null;
  if (!body || typeof body !== 'object') throw new Error('no record');
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    name: text(body.name), address_line_1: text(body.address_line_1), city: text(body.city), state: text(body.state),
    zip: text(body.zip), ceeb: text(body.ceeb), country: text(body.country),
  };
}
