/**
 * Helpers that ajv's generated code normally `require`s from ajv/dist/runtime. The
 * generator rewrites those requires to imports of this module, so the compiled
 * validators are plain ES modules for both Vite and Node.
 */

/** Length in Unicode code points, as JSON Schema counts it (ajv's ucs2length). */
export function ucs2length(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    length++;
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if ((next & 0xfc00) === 0xdc00) index++;
    }
  }
  return length;
}

/** Structural equality for `const` and `enum` on objects and arrays (ajv's equal). */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a) && Array.isArray(b)) {
      return a.length === b.length && a.every((item, index) => equal(item, b[index]));
    }
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    if (keysA.length !== keysB.length) return false;
    return keysA.every(
      (key) => Object.prototype.hasOwnProperty.call(b, key) &&
        equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    );
  }
  return Number.isNaN(a) && Number.isNaN(b); // NaN equals NaN here, as in ajv's equal
}
