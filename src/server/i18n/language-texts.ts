/**
 * The server's texts in a language: a schema file's texts (for the mails) and the message
 * catalogue (for replies written in English). English is the imported files themselves, never changed: the
 * stored answers' `_desc` labels and everything staff read come from them.
 */
import spanish from '../../shared/generated/i18n-es-server.json';
import { SOURCE_LANGUAGE, type Language } from '../../shared/i18n/languages.ts';
import { messageCatalogue, type MessageCatalogue, type MessagePairs } from '../../shared/i18n/message-catalogue.ts';
import { withOverlay } from '../../shared/i18n/overlay.ts';

interface LanguageBundle {
  files: Record<string, unknown>;
  messages: MessagePairs;
}

const bundles: Partial<Record<Language, LanguageBundle>> = { es: spanish as unknown as LanguageBundle };
const files = new Map<string, unknown>();
const catalogues = new Map<Language, MessageCatalogue>();

/** A schema file's texts in `language` (the English module itself for English), made once. */
export function fileIn<T>(language: Language, file: string, english: T): T {
  const bundle = bundles[language];
  if (language === SOURCE_LANGUAGE || !bundle?.files[file]) return english;
  const id = `${language}:${file}`;
  if (!files.has(id)) files.set(id, withOverlay(english, bundle.files[file]));
  return files.get(id) as T;
}

/** A message the server wrote in English, in `language` (unchanged when the catalogue does not know it). */
export function translateMessage(language: Language, message: string): string {
  const bundle = bundles[language];
  if (language === SOURCE_LANGUAGE || !bundle) return message;
  let catalogue = catalogues.get(language);
  if (!catalogue) catalogues.set(language, (catalogue = messageCatalogue(bundle.messages)));
  return catalogue.translate(message);
}
