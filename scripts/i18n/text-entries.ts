/**
 * Which strings of a schema file are texts an applicant reads (and so need every
 * language), as a map from a readable path to the text. A list element is named by its
 * identity field (`oneOf[const=Y].title`), so the same path names the same text in the
 * English file and in its overlay whatever their order.
 */
import { IDENTITY_FIELDS } from '../../src/shared/i18n/overlay.ts';

type Json = unknown;

/** The English files with applicant-facing texts; staff-only files (export, API, data model) stay English. */
export function isTranslatedFile(file: string): boolean {
  if (file === 'text/export.json' || file === 'text/funnel-report.json') return false;
  return /^(pages|definitions|options|text|auth)\/[^/]+\.json$/.test(file) || ['banners.json', 'documents.json', 'file-items.json', 'partner.json', 'reminders.json'].includes(file);
}

/**
 * The institution's settings are names, addresses and codes, the same in every language;
 * only these are words an applicant reads in their language.
 */
const PARTNER_TEXTS = new Set(['admissions_office']);

/** Keys whose strings are codes, addresses, patterns or dates, never texts. */
const STRUCTURAL_KEYS = new Set([
  '$id', '$ref', '$schema', '$comment', '$data', 'const', 'enum', 'value', 'country', 'only', 'except', 'when_blank',
  'x-exclude', 'required', 'pattern', 'path', 'to', 'url', 'start', 'end', 'autocomplete', 'ui:autocomplete', 'cip',
  'not_found_redirect', 'extensions', 'x-first', 'x-prefix', 'x-prefixes', 'button_id', 'tab_id', 'ui:order', 'type', 'format',
]);

/**
 * Keys whose strings are always words on the screen, however short or code-like they look:
 * "9th" under a question's title is a text ("9.º" in Spanish), not a code.
 */
const TEXT_KEYS = new Set(['title', 'ui:title', 'description', 'ui:description', 'ui:help', 'ui:placeholder', 'label', 'notice']);

/** Lower-case or camelCase names, file extensions, widget, operator and key names: not prose. */
const IDENTIFIER = /^[a-z0-9][a-zA-Z0-9_.\-/:#$@+]*$/;

/** Files of texts only (text/): every string in them is read by an applicant, but a URL. */
const isTextFile = (file: string) => /^text\/[^/]+\.json$/.test(file);

/** A settings file's group of texts only: every string in it is words ("required" there is the word "Required"). */
const isTextGroup = (file: string, key: string, depth: number) => depth === 0 && file === 'file-items.json' && key === 'texts';

function isText(value: string, key: string, inMessages: boolean, textFile: boolean): boolean {
  if (!/\p{L}/u.test(value)) return false;
  if (inMessages) return true;
  if (STRUCTURAL_KEYS.has(key)) return false;
  if (/^https?:\/\//.test(value)) return false;
  // in a text file a list element's name ("id": "works") is no text; every other string is
  if (TEXT_KEYS.has(key) || (textFile && !(IDENTITY_FIELDS as readonly string[]).includes(key))) return true;
  return !IDENTIFIER.test(value);
}

/** Where a text is in its file, as a JSON path (property names and list positions). */
export type TextPointer = (string | number)[];

function elementLabel(element: Json, index: number): string {
  if (element && typeof element === 'object' && !Array.isArray(element)) {
    const record = element as Record<string, Json>;
    for (const field of IDENTITY_FIELDS) {
      if (typeof record[field] === 'string' || typeof record[field] === 'number') return `[${field}=${String(record[field])}]`;
    }
  }
  return `[${index}]`;
}

/** The texts of an English file: path → text; `pointers` (when given) gets each text's place in the file. */
export function englishTexts(file: string, json: Json, pointers?: Map<string, TextPointer>): Map<string, string> {
  const texts = new Map<string, string>();
  if (file === 'partner.json') {
    for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
      if (PARTNER_TEXTS.has(key) && typeof value === 'string') {
        texts.set(key, value);
        pointers?.set(key, [key]);
      }
    }
    return texts;
  }
  const textFile = isTextFile(file);
  const walk = (value: Json, path: string, pointer: TextPointer, key: string, inMessages: boolean, depth: number): void => {
    if (typeof value === 'string') {
      if (isText(value, key, inMessages, textFile)) {
        texts.set(path, value);
        pointers?.set(path, pointer);
      }
    } else if (Array.isArray(value)) {
      value.forEach((element, index) => walk(element, `${path}${elementLabel(element, index)}`, [...pointer, index], key, inMessages, depth + 1));
    } else if (value && typeof value === 'object') {
      for (const [child, inner] of Object.entries(value)) {
        // a file's own "description" is a note for staff, not a text on the screen
        if (child === 'description' && (depth === 0 || file.startsWith('auth/'))) continue;
        const messages = inMessages || child === 'errorMessage' || (file === 'text/validation.json' && child === 'defaults') || isTextGroup(file, child, depth);
        walk(inner, path ? `${path}.${child}` : child, [...pointer, child], child, messages, depth + 1);
      }
    }
  };
  walk(json, '', [], '', false, 0);
  return texts;
}

/** Every text of an overlay file: path → text (identity fields and settings such as "x-cldr" are not texts); `pointers` as above. */
export function overlayTexts(json: Json, pointers?: Map<string, TextPointer>): Map<string, string> {
  const texts = new Map<string, string>();
  const walk = (value: Json, path: string, pointer: TextPointer, depth: number, inList: boolean): void => {
    if (typeof value === 'string') {
      texts.set(path, value);
      pointers?.set(path, pointer);
    } else if (Array.isArray(value)) {
      value.forEach((element, index) => walk(element, `${path}${elementLabel(element, index)}`, [...pointer, index], depth + 1, true));
    } else if (value && typeof value === 'object') {
      // a list element's identity field names it; it is not a text
      const identity = inList ? elementLabel(value, -1) : '';
      for (const [child, inner] of Object.entries(value)) {
        if (depth === 0 && child === 'x-cldr') continue;
        if (identity.startsWith(`[${child}=`)) continue;
        walk(inner, path ? `${path}.${child}` : child, [...pointer, child], depth + 1, false);
      }
    }
  };
  walk(json, '', [], 0, false);
  return texts;
}
