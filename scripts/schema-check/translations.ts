/**
 * Every applicant-facing text has its version in each other language, and the same
 * placeholders ({partner}, {n}, ...) in both: a missing or broken translation would show
 * English, or an unfilled "{name}", to a Spanish-speaking applicant. The overlays live in
 * i18n/<lang>/ beside the English files, with the same paths and keys.
 */
import { OVERLAY_LANGUAGES } from '../../src/shared/i18n/languages.ts';
import { placeholders } from '../../src/shared/i18n/overlay.ts';
import { cldrRegionTitles } from '../i18n/cldr.ts';
import { englishTexts, isTranslatedFile, overlayTexts, type TextPointer } from '../i18n/text-entries.ts';
import type { SchemaTree } from './load.ts';
import { problem, type Problem } from './problems.ts';

type Json = Record<string, unknown>;

const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

function checkFile(tree: SchemaTree, file: string, language: string): Problem[] {
  const english = tree.files.get(file) as Json;
  const overlayFile = `i18n/${language}/${file}`;
  const texts = englishTexts(file, english);
  const overlay = tree.files.get(overlayFile) as Json | undefined;
  if (!overlay) {
    if (!texts.size || tree.problems.some((item) => item.file === overlayFile)) return [];
    return [problem('missing translation', overlayFile, '', `the ${language} texts of schemas/${file} are missing (${texts.size} texts)`,
      `create it with the same keys as schemas/${file}, holding each text in ${language}`, { file, path: [] })];
  }
  const problems: Problem[] = [];
  const englishAt = new Map<string, TextPointer>();
  englishTexts(file, english, englishAt);
  const overlayAt = new Map<string, TextPointer>();
  const translated = overlayTexts(overlay, overlayAt);
  if (overlay['x-cldr'] === 'region') {
    for (const code of cldrRegionTitles(english, language).keys()) translated.set(`oneOf[const=${code}].title`, code);
  }
  for (const [path, text] of texts) {
    const other = translated.get(path);
    if (other === undefined) {
      // placed on the English text: the line a change added it on
      problems.push(problem('missing translation', overlayFile, path, `no ${language} text for "${short(text)}"`,
        `add "${path}" to schemas/${overlayFile} with the text in ${language}`, { file, path: englishAt.get(path) ?? [] }));
    } else if (placeholders(text).join() !== placeholders(other).join()) {
      problems.push(problem('missing translation', overlayFile, path,
        `the placeholders differ: English has ${placeholders(text).map((name) => `{${name}}`).join(' ') || 'none'}, ${language} has ${placeholders(other).map((name) => `{${name}}`).join(' ') || 'none'}`,
        `write the same {placeholders} in both, untranslated (they are filled in by the application)`, { file: overlayFile, path: overlayAt.get(path) ?? [] }));
    }
  }
  for (const path of translated.keys()) {
    if (!texts.has(path)) {
      problems.push(problem('missing translation', overlayFile, path, `schemas/${file} has no text at this place (renamed, moved or removed?)`,
        `move it to the key the English text has now, or delete it`, { file: overlayFile, path: overlayAt.get(path) ?? [] }));
    }
  }
  return problems;
}

export function checkTranslations(tree: SchemaTree): Problem[] {
  const problems: Problem[] = [];
  for (const language of OVERLAY_LANGUAGES) {
    for (const file of tree.files.keys()) {
      if (isTranslatedFile(file)) problems.push(...checkFile(tree, file, language));
    }
    for (const file of tree.files.keys()) {
      const english = file.slice(`i18n/${language}/`.length);
      if (file.startsWith(`i18n/${language}/`) && !tree.files.has(english)) {
        problems.push(problem('missing translation', file, '', `there is no English file schemas/${english} for it`, `rename it after its English file, or delete it`));
      }
    }
  }
  return problems;
}
