/** The look-up categories of the spec ("Autocomplete categories"). */
export const LOOKUP_CATEGORIES = ['hs_ceeb', 'college_ceeb', 'address'] as const;

export type LookupCategory = (typeof LOOKUP_CATEGORIES)[number];

export function isLookupCategory(value: unknown): value is LookupCategory {
  return typeof value === 'string' && (LOOKUP_CATEGORIES as readonly string[]).includes(value);
}

/** CEEB codes are fixed width: 6 digits for high schools, 4 for colleges. A ZIP is the id of an address. */
export const ID_DIGITS: Record<LookupCategory, number> = { hs_ceeb: 6, college_ceeb: 4, address: 5 };
