/**
 * Texts by language: an overlay file (schemas/i18n/<lang>/<path>) mirrors its English
 * file's keys and holds only the texts. Objects merge by key; a list of objects merges
 * element by element through the element's identity field (`const` for options, `key`
 * for fields, `path` for steps, `id` for banners), so reordering or adding an English
 * entry never shifts a translation onto the wrong one; other lists merge by position.
 */
type Json = unknown;

/** The fields that name an element of a list; an overlay element carries the same value. */
export const IDENTITY_FIELDS = ['const', 'key', 'path', 'id'] as const;

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function identityOf(element: Json): [string, string] | undefined {
  if (!isObject(element)) return undefined;
  for (const field of IDENTITY_FIELDS) {
    if (typeof element[field] === 'string' || typeof element[field] === 'number') return [field, String(element[field])];
  }
  return undefined;
}

/** The element of `list` an overlay element stands for (by identity, else at the same position). */
export function matchingIndex(list: Json[], overlayElement: Json, position: number): number {
  const identity = identityOf(overlayElement);
  if (!identity) return position < list.length ? position : -1;
  const [field, value] = identity;
  return list.findIndex((element) => isObject(element) && String(element[field]) === value);
}

/** A list element's overlay without the field that names it (a code is never rewritten). */
function withoutIdentity(element: Json): Json {
  const identity = identityOf(element);
  if (!identity || !isObject(element)) return element;
  const { [identity[0]]: _name, ...rest } = element;
  return rest;
}

/**
 * Writes the overlay's texts into `target` in place (the client's text modules, once,
 * before the first render); `replaced` hears each English text and its translation.
 * Parts of the overlay with no English counterpart are ignored: the schema check reports them.
 */
export function applyOverlayInPlace(target: Json, overlay: Json, replaced?: (english: string, translation: string) => void): void {
  if (Array.isArray(target) && Array.isArray(overlay)) {
    overlay.forEach((element, position) => {
      const index = matchingIndex(target, element, position);
      if (index < 0) return;
      if (typeof element === 'string') {
        if (typeof target[index] === 'string') replaced?.(target[index], element);
        target[index] = element;
      } else {
        applyOverlayInPlace(target[index], withoutIdentity(element), replaced);
      }
    });
    return;
  }
  if (!isObject(target) || !isObject(overlay)) return;
  for (const [key, value] of Object.entries(overlay)) {
    if (!(key in target)) continue;
    if (typeof value === 'string') {
      if (typeof target[key] !== 'string') continue;
      replaced?.(target[key], value);
      target[key] = value;
    } else {
      applyOverlayInPlace(target[key], value, replaced);
    }
  }
}

/** A translated copy of an English file; the English stays as it is (the server keeps both). */
export function withOverlay<T>(english: T, overlay: Json): T {
  const copy = structuredClone(english);
  if (overlay !== undefined) applyOverlayInPlace(copy, overlay);
  return copy;
}

/** The `{name}` placeholders of a text, sorted and without repeats. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!))].sort();
}
