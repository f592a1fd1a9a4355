/**
 * Country names in another language come from CLDR (Intl.DisplayNames), not a list typed
 * by hand: an overlay with `"x-cldr": "region"` gets each option's title from its code,
 * and the list is shown in that language's alphabetical order (Intl.Collator), but for
 * the entries the English file pins first (`"x-first"`, United States in the spec's country list).
 */
import { toAlpha2 } from '../lookups/country-codes.ts';

type Json = Record<string, unknown>;

/** The option titles CLDR gives for a country list, by code; codes CLDR does not know are left out. */
export function cldrRegionTitles(english: Json, language: string): Map<string, string> {
  const names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
  const titles = new Map<string, string>();
  for (const option of (english.oneOf ?? []) as { const: string }[]) {
    const alpha2 = toAlpha2(option.const);
    const name = alpha2 ? names.of(alpha2) : undefined;
    if (name) titles.set(option.const, name);
  }
  return titles;
}

/** An overlay with its CLDR titles written out, as the runtime merge expects. */
export function expandCldr(english: Json, overlay: Json, language: string): Json {
  if (overlay['x-cldr'] !== 'region') return overlay;
  const titles = cldrRegionTitles(english, language);
  const { 'x-cldr': _setting, ...rest } = overlay;
  return { ...rest, oneOf: [...titles].map(([code, title]) => ({ const: code, title })) };
}

/** Whether an overlay names its list's titles from CLDR (and so orders the list by them). */
export const isCldrNamed = (overlay: Json | undefined): boolean => overlay?.['x-cldr'] === 'region';

interface Option {
  const: string;
  title: string;
}

/** A translated list in `language`'s alphabetical order, the English file's pinned entries (`"x-first"`) first, as they are. */
export function inLanguageOrder(localized: Json, language: string): Json {
  const options = (localized.oneOf ?? []) as Option[];
  const first = (localized['x-first'] ?? []) as string[];
  const collator = new Intl.Collator(language);
  const pinned = first.flatMap((code) => options.filter((option) => option.const === code));
  const rest = options.filter((option) => !first.includes(option.const)).sort((a, b) => collator.compare(a.title, b.title));
  return { ...localized, oneOf: [...pinned, ...rest] };
}
