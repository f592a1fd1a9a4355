/**
 * The language the browser's page is in: set once by the client before the app runs
 * (src/client/i18n/apply-language.ts). The texts need no setting: each language has its
 * own build. The server never sets it: it answers each request in that request's language.
 */
import { SOURCE_LANGUAGE, type Language } from './languages.ts';

export const activeLanguage: { code: Language } = { code: SOURCE_LANGUAGE };
