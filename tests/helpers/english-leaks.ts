import type { Page } from 'playwright-core';
import partner from '../../schemas/partner.json';
import languageNames from '../../src/shared/generated/language-names.json';
import { overlaysOf } from '../../scripts/i18n/localized-tree.ts';
import { englishTexts, overlayTexts } from '../../scripts/i18n/text-entries.ts';
import { loadTree } from '../../scripts/schema-check/load.ts';

/**
 * Finding English where an applicant reads another language: on a page (its text, its
 * title, and what a screen reader hears of it: names, descriptions, announcements), in a
 * mail and in the PDF copy. Two nets: the English texts of the schema files whose
 * translation differs, as whole phrases; and every word of those texts that no text of the
 * language uses, which also catches English written in code or by a library ("Close" on a
 * dialog's ×) and a missing translation however short ("9th").
 */
export interface Leak {
  /** the English phrase or word found */
  english: string;
  /** where: "text", "name of button", "title", "mail subject", ... */
  where: string;
}

/** Words of three letters or more, lower-cased, as a page, a mail or a PDF is scanned for them. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/\p{L}{3,}/gu) ?? [];
}

/**
 * The English texts of the schema files that a page in another language must not show:
 * every applicant-facing text whose translation differs, written as a pattern of whole
 * words. A text with placeholders is looked for by its longest fixed part; a text that a
 * translation itself contains (a degree's English name kept beside its Spanish one, "No")
 * is left out.
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
      // a whole text counts however short ("9th", "Yes"); a text's fixed part only when long enough to be that text's
      if (fixed.length < (fixed === filled(text).trim() ? 2 : 12)) continue;
      if (translations.some((translation) => filled(translation).includes(fixed))) continue;
      const escaped = fixed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
      patterns.set(fixed, new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u'));
    }
  }
  return [...patterns].map(([text, pattern]) => ({ text, pattern }));
}

/**
 * Every word the English schema texts use that no text of `language` uses (its overlays,
 * its country names written out, the institution's names and addresses).
 */
export function englishWordsOf(language: string): Set<string> {
  const tree = loadTree();
  const overlays = overlaysOf(language);
  // the institution's names and addresses are the same in every language (its office's name is translated)
  const { name, short_name: shortName, address, help_email: email, privacy_policy_url: privacy, pdf_reader_url: reader } = partner;
  const theirs = new Set<string>(wordsOf(JSON.stringify([name, shortName, address, email, privacy, reader])));
  for (const overlay of Object.values(overlays)) for (const text of overlayTexts(overlay).values()) for (const word of wordsOf(text.replace(/\{\w+\}/g, ' '))) theirs.add(word);
  const english = new Set<string>();
  for (const file of Object.keys(overlays)) {
    for (const text of englishTexts(file, tree.files.get(file)).values()) {
      // placeholders are filled in, not read
      for (const word of wordsOf(text.replace(/\{\w+\}/g, ' '))) if (!theirs.has(word)) english.add(word);
    }
  }
  return english;
}

/** Finds English in texts meant to be in `language`; `allowed` are texts the applicant typed (their answers may be English words). */
export class EnglishFinder {
  private readonly patterns: { text: string; pattern: RegExp }[];
  private readonly words: Set<string>;
  private readonly allowed = new Set<string>();
  private readonly typed: string[] = [];

  constructor(language: string, allowed: string[] = []) {
    this.patterns = englishTextPatterns(language);
    this.words = englishWordsOf(language);
    this.allow(...allowed);
  }

  /** Texts the applicant typed, whose words may be English. */
  allow(...texts: string[]): void {
    this.typed.push(...texts);
    for (const text of texts) for (const word of wordsOf(text)) this.allowed.add(word);
  }

  /** The English in `text`: schema phrases, then words (an address or e-mail in it is not read). */
  find(text: string, where: string): Leak[] {
    // what the applicant typed, and addresses, are not read
    const readable = this.typed.reduce((rest, typed) => rest.split(typed).join(' '), text).replace(/\b(https?:\/\/\S+|[\w.+-]+@[\w.-]+)/g, ' ');
    const phrases = this.patterns.filter(({ pattern }) => pattern.test(readable)).map(({ text: english }) => ({ english, where }));
    const words = [...new Set(wordsOf(readable))].filter((word) => this.words.has(word) && !this.allowed.has(word)).map((english) => ({ english, where }));
    return [...phrases, ...words];
  }
}

interface PageTexts {
  title: string;
  text: string;
  /** what a screen reader hears besides the text: names and descriptions, by role */
  heard: { role: string; name: string; description: string }[];
}

/**
 * What a page gives its reader: its title, its visible text (select options included; text
 * marked as another language, the header's link to the English page, left out) and, from
 * Chromium's accessibility tree, the name and description of every node (a button's name
 * from aria-label, a field's description, a live region's words), as a screen reader hears them.
 */
export async function pageTexts(page: Page): Promise<PageTexts> {
  const { title, text } = await page.evaluate(() => {
    const marked = [...document.body.querySelectorAll<HTMLElement>('[lang]')].filter((element) => element.lang !== document.documentElement.lang);
    return { title: document.title, text: marked.reduce((all, element) => all.replace(element.innerText, ''), document.body.innerText) };
  });
  const cdp = await page.context().newCDPSession(page);
  try {
    type AxNode = { nodeId: string; parentId?: string; ignored: boolean; role?: { value?: string }; name?: { value?: string }; description?: { value?: string } };
    const { nodes } = await cdp.send('Accessibility.getFullAXTree') as { nodes: AxNode[] };
    // the language links name each language in itself
    const autonyms = new Set(Object.values(languageNames));
    // a date input's parts ("Month", "Show date picker") are the browser's own, in the browser's
    // language, not the page's (a known limit, in the accessibility statement)
    const byId = new Map(nodes.map((node) => [node.nodeId, node]));
    const inBrowserControl = (node: AxNode): boolean => {
      for (let up = node.parentId ? byId.get(node.parentId) : undefined; up; up = up.parentId ? byId.get(up.parentId) : undefined) {
        if (['Date', 'DateTime', 'InputTime'].includes(String(up.role?.value))) return true;
      }
      return false;
    };
    const heard = nodes.filter((node) => !node.ignored && !autonyms.has(String(node.name?.value ?? '')) && !inBrowserControl(node))
      .map((node) => ({ role: String(node.role?.value ?? ''), name: String(node.name?.value ?? ''), description: String(node.description?.value ?? '') }))
      .filter((node) => node.name || node.description);
    return { title, text, heard };
  } finally {
    await cdp.detach();
  }
}

/** The English a page gives its reader, seen or heard. */
export async function englishOnPage(page: Page, finder: EnglishFinder): Promise<Leak[]> {
  const { title, text, heard } = await pageTexts(page);
  return [
    ...finder.find(title, 'title'),
    ...finder.find(text, 'text'),
    ...heard.flatMap((node) => [...finder.find(node.name, `name of ${node.role}`), ...finder.find(node.description, `description of ${node.role}`)]),
  ].filter((leak, index, all) => all.findIndex((other) => other.english === leak.english && other.where === leak.where) === index);
}
