/**
 * Names the page's language for the modules that speak it (the language links, plural
 * rules) before the app runs: the server names it in <html lang> (the applicant's choice,
 * else the browser's Accept-Language) and sends that language's build, whose texts are in
 * place already (scripts/vite/language-build.ts).
 */
import { activeLanguage } from '../../shared/i18n/active-language.ts';
import { isLanguage, SOURCE_LANGUAGE, type Language } from '../../shared/i18n/languages.ts';
import { setPluralLanguage } from '../../shared/text/plural.ts';

export function applyLanguage(requested: string): Language {
  const language = isLanguage(requested) ? requested : SOURCE_LANGUAGE;
  activeLanguage.code = language;
  setPluralLanguage(language);
  return language;
}
