import lookupText from '../../../schemas/text/lookup.json';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { HttpError } from '../lib/http-error.ts';
import { LOOKUP_CATEGORIES, isLookupCategory, type LookupCategory } from './categories.ts';

export type LookupQuery =
  | { kind: 'suggestions'; category: LookupCategory; text: string; maxResults: number }
  | { kind: 'details'; category: LookupCategory; id: string };

export const DEFAULT_MAX_RESULTS = 5;
export const MAX_RESULTS_LIMIT = 20;

/**
 * Reads GET /lookup/find's query: `id` asks for one record, otherwise `text` for suggestions.
 * An unknown category is refused; max_results is clamped to 1..20 rather than refused.
 */
export function parseLookupQuery(query: Record<string, unknown>): LookupQuery {
  const category = first(query.category);
  if (!isLookupCategory(category)) {
    throw new HttpError(400, fillTemplate(lookupText.unknown_category, { categories: LOOKUP_CATEGORIES.join(', ') }), { code: 'UNKNOWN_CATEGORY' });
  }
  const id = first(query.id);
  if (id) return { kind: 'details', category, id: id.trim() };
  return { kind: 'suggestions', category, text: first(query.text) ?? '', maxResults: clampMaxResults(first(query.max_results)) };
}

function clampMaxResults(raw: string | undefined): number {
  const value = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  if (Number.isNaN(value)) return DEFAULT_MAX_RESULTS;
  return Math.min(MAX_RESULTS_LIMIT, Math.max(1, Math.trunc(value)));
}

/** A repeated parameter counts once. */
function first(value: unknown): string | undefined {
  const item = Array.isArray(value) ? value[0] : value;
  return typeof item === 'string' ? item : undefined;
}
