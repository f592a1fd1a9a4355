/**
 * One language's texts for the app (src/shared/generated/i18n-<lang>.json): the overlays
 * of the schema files the client and server import, the texts of the generated form model
 * and page messages where they differ from English; and for the server, a catalogue of
 * messages by their English template (its replies are written in English, and translated
 * on the way out).
 */
import { withLocalizedTree, overlaysOf, textDifferences } from '../i18n/localized-tree.ts';
import { englishTexts, overlayTexts } from '../i18n/text-entries.ts';
import { readJson } from '../schema-files.ts';
import { buildForm, type GeneratedForm } from './form-model.ts';

/** What the browser loads for the language: only what the page shows, for the visitor who reads it. */
export interface ClientLanguageTexts {
  /** the text files the client imports (the pages' texts come in the form model) */
  files: Record<string, unknown>;
  formModel: unknown;
  pageMessages: unknown;
}

/** What the server keeps: every file's texts (the mails) and every message a reply can carry. */
export interface ServerLanguageTexts {
  files: Record<string, unknown>;
  messages: [string, string][];
}

/** The files whose texts can come back from the server or a compiled validator as a message. */
const MESSAGE_FILE = /^(auth\/|text\/(api-messages|errors|validation)\.json$|documents\.json$)/;
/**
 * What the browser does not import: the files the form model is made of (their texts come
 * in the model), the server's API messages, and the default messages the page messages are made from.
 */
const NOT_IN_BROWSER = /^((pages|definitions|options)\/|text\/(api-messages|validation)\.json$)/;

/** Pairs of strings at the same place of two same-shaped values, where they differ. */
function stringPairs(english: unknown, translated: unknown, into: Map<string, string>): void {
  if (typeof english === 'string') {
    if (typeof translated === 'string' && translated !== english && !into.has(english)) into.set(english, translated);
  } else if (english && typeof english === 'object' && translated && typeof translated === 'object') {
    for (const [key, value] of Object.entries(english)) stringPairs(value, (translated as Record<string, unknown>)[key], into);
  }
}

/** [English, translation] of every text of the message files matching `files`. */
function filePairs(overlays: Record<string, unknown>, files: RegExp): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const [file, overlay] of Object.entries(overlays)) {
    if (!files.test(file)) continue;
    const theirs = overlayTexts(overlay);
    for (const [path, text] of englishTexts(file, readJson(file))) {
      const other = theirs.get(path);
      if (other !== undefined && other !== text && !pairs.has(text)) pairs.set(text, other);
    }
  }
  return pairs;
}

export function languageTexts(language: string, english: GeneratedForm): { client: ClientLanguageTexts; server: ServerLanguageTexts } {
  const files = overlaysOf(language);
  const translated = withLocalizedTree(language, () => buildForm());
  const replies = filePairs(files, MESSAGE_FILE);
  stringPairs(english.messages, translated.messages, replies);
  return {
    client: {
      files: Object.fromEntries(Object.entries(files).filter(([file]) => !NOT_IN_BROWSER.test(file))),
      formModel: textDifferences(english.model, translated.model) ?? {},
      pageMessages: textDifferences(english.messages, translated.messages) ?? {},
    },
    server: { files, messages: [...replies] },
  };
}
