/**
 * Puts the page in its language before the app's modules run: the server names it in
 * <html lang> (the applicant's choice, else the browser's Accept-Language). English is
 * the imported files as they are and loads nothing more; another language loads its own
 * texts (language-texts.ts and that language's chunk) and writes them into the same modules.
 */
import { activeLanguage } from '../../shared/i18n/active-language.ts';
import { isLanguage, SOURCE_LANGUAGE, type Language } from '../../shared/i18n/languages.ts';
import { setPluralLanguage } from '../../shared/text/plural.ts';

export async function applyLanguage(requested: string): Promise<Language> {
  const language = isLanguage(requested) ? requested : SOURCE_LANGUAGE;
  activeLanguage.code = language;
  setPluralLanguage(language);
  if (language !== SOURCE_LANGUAGE) await (await import('./language-texts.ts')).loadLanguage(language);
  return language;
}
