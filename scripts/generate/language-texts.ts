/**
 * One language's texts for the app. For the browser, the files its build imports in place
 * of the English ones (src/shared/generated/<lang>/, scripts/vite/language-build.ts): each
 * translated schema file whole, and the form model, page messages and account validators
 * generated from the schemas in that language; a visitor loads only their language's texts.
 * For the server (i18n-<lang>-server.json), the overlays and a catalogue of messages by
 * their English template (its replies are written in English, and translated on the way out).
 */
import { localizedFiles, overlaysOf, withLocalizedTree } from '../i18n/localized-tree.ts';
import { englishTexts, overlayTexts } from '../i18n/text-entries.ts';
import { readJson } from '../schema-files.ts';
import { buildForm, modelFile, type GeneratedForm } from './form-model.ts';
import { generateAuthValidators } from './validators.ts';

/** What the server keeps: every file's texts (the mails) and every message a reply can carry. */
export interface ServerLanguageTexts {
  files: Record<string, unknown>;
  messages: [string, string][];
}

/** The files whose texts can come back from the server or a compiled validator as a message. */
const MESSAGE_FILE = /^(auth\/|text\/(api-messages|errors|validation)\.json$|documents\.json$)/;

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

/**
 * The language's generated files: `client` by their path under src/shared/generated/<lang>/
 * (schemas/<file> for a schema file, else the generated file's own name), and the server's texts.
 */
export function languageTexts(language: string, english: GeneratedForm): { client: Record<string, string>; server: ServerLanguageTexts } {
  const files = overlaysOf(language);
  const translated = withLocalizedTree(language, () => ({ form: buildForm(), validators: generateAuthValidators() }));
  const replies = filePairs(files, MESSAGE_FILE);
  stringPairs(english.messages, translated.form.messages, replies);
  return {
    client: {
      ...Object.fromEntries([...localizedFiles(language)].map(([file, json]) => [`schemas/${file}`, JSON.stringify(json)])),
      'form-model.json': modelFile(translated.form.model),
      'page-messages.json': JSON.stringify(translated.form.messages),
      'validators.js': translated.validators.code,
    },
    server: { files, messages: [...replies] },
  };
}
