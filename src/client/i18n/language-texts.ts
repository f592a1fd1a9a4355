/**
 * Writes a language's texts into the text modules and the form model, before the app
 * runs. What is stored is unchanged: answers are codes, and the server recomputes every
 * `_desc` label from the English files (a label the client computes is never stored).
 */
import { activeLanguage, type LanguageBundle } from '../../shared/i18n/active-language.ts';
import type { Language } from '../../shared/i18n/languages.ts';
import { messageCatalogue, type MessagePairs } from '../../shared/i18n/message-catalogue.ts';
import { applyOverlayInPlace } from '../../shared/i18n/overlay.ts';
import { FORM_MODEL, TEXT_MODULES } from './text-modules.ts';

/** Each language's own chunk: a visitor loads only the texts of the language they read. */
const BUNDLES: Partial<Record<Language, () => Promise<{ default: unknown }>>> = {
  es: () => import('../../shared/generated/i18n-es.json'),
};

export async function loadLanguage(language: Language): Promise<void> {
  const load = BUNDLES[language];
  if (!load) return;
  const bundle = (await load()).default as LanguageBundle;
  // the account forms' validators are compiled with their English messages: each is found by its English text
  const accountMessages: MessagePairs = [];
  for (const [file, overlay] of Object.entries(bundle.files)) {
    const target = TEXT_MODULES[file];
    if (target) applyOverlayInPlace(target, overlay, file.startsWith('auth/') ? (english, translation) => accountMessages.push([english, translation]) : undefined);
  }
  applyOverlayInPlace(FORM_MODEL, bundle.formModel);
  activeLanguage.translate = messageCatalogue(accountMessages).translate;
  activeLanguage.bundle = bundle;
}
