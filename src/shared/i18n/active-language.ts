/**
 * The language the browser's page is in, and its texts once loaded: set once by the
 * client before the app runs (src/client/i18n/apply-language.ts). Modules loaded later
 * (page validation's messages) take their texts from here. The server never sets it: it
 * answers each request in that request's language.
 */
import { SOURCE_LANGUAGE, type Language } from './languages.ts';

export interface LanguageBundle {
  files: Record<string, unknown>;
  formModel: unknown;
  pageMessages: unknown;
}

export const activeLanguage: {
  code: Language;
  bundle: LanguageBundle | null;
  /** a message compiled into a validator in English, in the page's language */
  translate: (message: string) => string;
} = { code: SOURCE_LANGUAGE, bundle: null, translate: (message) => message };
