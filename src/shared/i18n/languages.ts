/**
 * The languages the applicant-facing application speaks. English is the source of every
 * text (the schema files); each other language is an overlay under schemas/i18n/<code>/.
 * Staff and the office always read English.
 */
export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const SOURCE_LANGUAGE: Language = 'en';
/** The languages that have overlay files (every one but the source). */
export const OVERLAY_LANGUAGES = LANGUAGES.filter((code) => code !== SOURCE_LANGUAGE);

/** The cookie that keeps an anonymous visitor's choice (and a signed-in applicant's, per browser). */
export const LANGUAGE_COOKIE = 'lang';
/** The query parameter of the language links in the header. */
export const LANGUAGE_PARAM = 'lang';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The best language for an Accept-Language header (RFC 9110 weights; "es-MX" counts for
 * "es"), or the source language when none is offered.
 */
export function negotiateLanguage(header: string | undefined): Language {
  if (!header) return SOURCE_LANGUAGE;
  const ranked = header.split(',')
    .map((part, index) => {
      const [range = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      return { tag: range.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((item) => item.tag && item.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const primary = tag.split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return SOURCE_LANGUAGE;
}

/**
 * Each language's name in itself ("English", "Español"), from CLDR. Read once at build
 * time (scripts/generate): making an Intl.DisplayNames loads its locale's data, which
 * cost a first visit about 15 ms of the browser's main thread.
 */
export function languageAutonym(code: Language): string {
  const name = new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code;
  return name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
}
