import { activeLanguage } from '../../shared/i18n/active-language.ts';
import { isLanguage, LANGUAGE_COOKIE, type Language } from '../../shared/i18n/languages.ts';

/** The language kept in this browser (the server sets it from a choice, or from the account at login). */
export function chosenLanguage(): Language | undefined {
  const value = document.cookie.split(';').map((part) => part.trim().split('=')).find(([name]) => name === LANGUAGE_COOKIE)?.[1];
  return isLanguage(value) ? value : undefined;
}

/** Whether the page is in another language than the one now chosen (logging in brought the account's). */
export function pageInOtherLanguage(): boolean {
  const chosen = chosenLanguage();
  return chosen !== undefined && chosen !== activeLanguage.code;
}
