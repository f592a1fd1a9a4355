import states from '../../schemas/options/states-provinces.json';
import type { LookupRow } from '../../src/server/db/repositories/lookup-repository.ts';
import { ID_DIGITS, type LookupCategory } from '../../src/server/lookups/categories.ts';
import { toAlpha3 } from './country-codes.ts';
import { normaliseName, searchVector } from '../../src/server/lookups/normalise.ts';

/** What one line of a list becomes: an entry, a line left out on purpose, or a line refused. */
export type EntryResult = { row: LookupRow } | { skipped: string } | { rejected: string };

/** Columns a list must have (docs/operations/lookup-data.md); the others are optional. */
export const REQUIRED_COLUMNS: Record<LookupCategory, string[]> = {
  hs_ceeb: ['ceeb', 'name', 'city', 'state'],
  college_ceeb: ['ceeb', 'name', 'city', 'state'],
  address: ['zip', 'city', 'state'],
};

/** The form's limit for a school name and address line (spec-decisions: maxLength 100). */
const MAX_TEXT = 100;

/** College lists matched to IPEDS: only these are colleges to offer. */
const OFFERED_MATCHES = new Set(['matched', 'review']);

const STATE_COUNTRY = new Map(states.oneOf.map((option) => [option.const, option.country]));

/**
 * Checks and maps one line's fields. A CEEB code or ZIP that lost its leading zeros in a
 * spreadsheet gets them back; a US list may leave the country out.
 */
export function toEntry(category: LookupCategory, fields: Record<string, string>): EntryResult {
  const isAddress = category === 'address';
  const matchStatus = fields.match_status?.toLowerCase();
  if (matchStatus !== undefined && !OFFERED_MATCHES.has(matchStatus)) {
    return { skipped: `match_status ${matchStatus || '(empty)'}: not a college to offer` };
  }
  // a confident IPEDS match brings the full name and a street address of the same source
  const matched = matchStatus === 'matched';
  const pick = (column: string) => (matched && fields[`ipeds_${column}`]) || fields[column] || '';

  const idColumn = isAddress ? 'zip' : 'ceeb';
  const width = ID_DIGITS[category];
  const rawId = fields[idColumn] ?? '';
  if (!rawId) return { rejected: `missing ${idColumn}` };
  if (!/^\d+$/.test(rawId) || rawId.length > width) return { rejected: `${idColumn} "${rawId}" is not ${width} digits` };
  const id = rawId.padStart(width, '0');

  const nameColumn = isAddress ? 'city' : 'name';
  const name = pick(nameColumn);
  if (!name) return { rejected: `missing ${nameColumn}` };
  if (name.length > MAX_TEXT) return { rejected: `${nameColumn} longer than ${MAX_TEXT} characters` };
  const searchText = normaliseName(name);
  if (!searchText) return { rejected: `name "${name}" has no letters or digits` };

  const addressLine = isAddress || matchStatus === 'review' ? '' : pick('address_line_1');
  if (addressLine.length > MAX_TEXT) return { rejected: `address_line_1 longer than ${MAX_TEXT} characters` };

  const city = pick('city');
  if (!city) return { rejected: 'missing city' };

  const country = fields.country ? toAlpha3(fields.country) : 'USA';
  if (!country) return { rejected: `unknown country "${fields.country}"` };

  const state = (fields.state ?? '').toUpperCase();
  const stateCountry = STATE_COUNTRY.get(state);
  if (!state && (country === 'USA' || country === 'CAN')) return { rejected: 'missing state' };
  if (state && stateCountry !== country) return { rejected: `state "${state}" is not a state or province of ${country}` };

  const zip = isAddress ? id : normaliseZip(pick('zip'), country);
  if (zip === undefined) return { rejected: `zip "${pick('zip')}" is not a US ZIP code` };

  return {
    row: {
      category, id, name, address_line_1: addressLine || null, city, state, zip, country,
      search_text: searchText, search_vector: searchVector(name, isAddress ? undefined : city),
    },
  };
}

/** A US ZIP as 5 digits or ZIP+4; other countries' postal codes as given. */
function normaliseZip(zip: string, country: string): string | undefined {
  if (country !== 'USA' || zip === '') return zip;
  const match = /^(\d{3,5})(-\d{4})?$/.exec(zip);
  return match ? match[1]!.padStart(5, '0') + (match[2] ?? '') : undefined;
}
