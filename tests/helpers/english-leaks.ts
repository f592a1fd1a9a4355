import type { Page } from 'playwright-core';
import partner from '../../schemas/partner.json';
import { overlaysOf } from '../../scripts/i18n/localized-tree.ts';
import { englishTexts, overlayTexts } from '../../scripts/i18n/text-entries.ts';
import { loadTree } from '../../scripts/schema-check/load.ts';

/**
 * The English texts of the schema files that a page in another language must not show:
 * every applicant-facing text whose translation differs, written as a pattern of whole
 * words. A text with placeholders is looked for by its longest fixed part; a text that a
 * translation itself contains (a degree's English name kept beside its Spanish one) or
 * too short to tell from a word of the other language is left out.
 */
export function englishTextPatterns(language: string): { text: string; pattern: RegExp }[] {
  const tree = loadTree();
  const overlays = overlaysOf(language);
  const translations = Object.values(overlays).flatMap((overlay) => [...overlayTexts(overlay).values()]);
  const filled = (text: string) => text.replace(/\{partner\}/g, partner.name).replace(/\{short_name\}/g, partner.short_name);
  const patterns = new Map<string, RegExp>();
  for (const [file, overlay] of Object.entries(overlays)) {
    const theirs = overlayTexts(overlay);
    for (const [path, text] of englishTexts(file, tree.files.get(file))) {
      if (theirs.get(path) === text) continue;
      const fixed = filled(text).split(/\{\w+\}/).map((part) => part.trim()).sort((a, b) => b.length - a.length)[0] ?? '';
      if (fixed.length < (fixed === filled(text).trim() ? 4 : 12)) continue;
      if (translations.some((translation) => filled(translation).includes(fixed))) continue;
      const escaped = fixed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
      patterns.set(fixed, new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u'));
    }
  }
  return [...patterns].map(([text, pattern]) => ({ text, pattern }));
}

/**
 * The English texts a page shows (its visible text, select options included). Text marked
 * as another language (the header's link to the English page, `lang="en"`) is not counted.
 */
export async function englishOnPage(page: Page, patterns: { text: string; pattern: RegExp }[]): Promise<string[]> {
  const visible = await page.evaluate(() => {
    const marked = [...document.body.querySelectorAll<HTMLElement>('[lang]')].filter((element) => element.lang !== document.documentElement.lang);
    return marked.reduce((text, element) => text.replace(element.innerText, ''), `${document.title}\n${document.body.innerText}`);
  });
  return patterns.filter(({ pattern }) => pattern.test(visible)).map(({ text }) => text);
}
