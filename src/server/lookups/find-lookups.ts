import type { Kysely } from 'kysely';
import { findLookup, findSuggestionRows, type LookupSummary } from '../db/repositories/lookup-repository.ts';
import type { Database } from '../db/tables.ts';
import type { LookupCategory } from './categories.ts';
import { planSearch } from './search-plan.ts';

/** A suggestion as the spec's look-up result: label, value and subtext. */
export interface LookupItem {
  text: string;
  id: string;
  sub_text: string;
}

/** The record a chosen suggestion fills the school or address fields with. */
export interface LookupDetails {
  name: string | null;
  address_line_1: string | null;
  city: string;
  state: string;
  zip: string;
  ceeb: string | null;
  country: string;
}

/** Suggestions for typed text, best first (see SearchPlan), at most `limit`: one statement (findSuggestionRows). */
export async function findSuggestions(db: Kysely<Database>, category: LookupCategory, text: string, limit: number): Promise<LookupItem[]> {
  const plan = planSearch(text);
  if (!plan) return [];
  const words = plan.searchWords ? { required: plan.requiredQuery, requiredInName: plan.requiredInNameQuery, optional: plan.optionalQueries } : undefined;
  const rows = await findSuggestionRows(db, category, { idPrefix: plan.idPrefix, namePrefixes: plan.namePrefixes, words }, limit);
  // an entry more than one tier found: the first, better place counts
  const found = new Map<string, LookupSummary>();
  for (const row of rows) if (found.size < limit && !found.has(row.id)) found.set(row.id, row);
  return [...found.values()].map((row) => toItem(category, row));
}

export async function findDetails(db: Kysely<Database>, category: LookupCategory, id: string): Promise<LookupDetails | undefined> {
  const record = await findLookup(db, category, id);
  if (!record) return undefined;
  const isAddress = category === 'address';
  return {
    name: isAddress ? null : record.name,
    address_line_1: record.address_line_1,
    city: record.city,
    state: record.state,
    zip: record.zip,
    ceeb: isAddress ? null : record.id,
    country: record.country,
  };
}

/** Schools show their name over "City, ST"; addresses their ZIP over the city. */
function toItem(category: LookupCategory, row: LookupSummary): LookupItem {
  const place = [row.city, row.state].filter(Boolean).join(', ');
  return { text: category === 'address' ? row.zip : row.name, id: row.id, sub_text: place };
}
