import type { LookupRecord } from './api/lookup-api.ts';

/** The registry name of a school block's name input (registered in ../index.ts; not for .ui.json files). */
export const SCHOOL_SEARCH_WIDGET = 'schoolSearch';

/** The answers of a school block, by the record field that fills them (spec "School search block"). */
export const SCHOOL_PARTS = ['name', 'ceeb', 'address_line_1', 'city', 'state', 'zip', 'country'] as const;
export type SchoolPart = (typeof SCHOOL_PARTS)[number];
export type SchoolValues = Partial<Record<SchoolPart, string | null>>;

/**
 * The block's answer keys by part. Use sites prefix the definition's keys (hs_name,
 * college_2_name), so the prefix is what comes before the name; a part the block does
 * not have (a college has no country) is left out.
 */
export function schoolKeys(keys: readonly string[]): Partial<Record<SchoolPart, string>> {
  const nameKey = keys.find((key) => key.endsWith('name'));
  if (!nameKey) return {};
  const prefix = nameKey.slice(0, -'name'.length);
  const result: Partial<Record<SchoolPart, string>> = {};
  for (const part of SCHOOL_PARTS) if (keys.includes(`${prefix}${part}`)) result[part] = `${prefix}${part}`;
  return result;
}

/** A chosen school's record as the block's values: every part set, so nothing of an earlier choice stays. */
export function recordValues(record: LookupRecord, label: string): SchoolValues {
  return { ...record, name: record.name || label };
}
