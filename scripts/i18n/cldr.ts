/**
 * Country names in another language come from CLDR (Intl.DisplayNames), not a list typed
 * by hand: an overlay with `"x-cldr": "region"` gets each option's title from its code.
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
