/**
 * Stands in for fast-uri, which @rjsf/utils imports only to resolve `$ref`s and compare
 * `$id`s (findSchemaDefinition). Our part schemas are expanded at build time and hold no
 * `$ref`, so the 22 KB parser is left out (vite.config.ts aliases it here); these two
 * functions keep the same behaviour for plain URIs if a `$ref` ever appears.
 */
function resolve(base: string, ref: string): string {
  try {
    return new URL(ref, base).toString();
  } catch {
    return ref.startsWith('#') ? `${base.split('#')[0]}${ref}` : ref;
  }
}

function equal(a: string, b: string): boolean {
  return a === b || resolve('http://x/', a) === resolve('http://x/', b);
}

export default { resolve, equal };
export { equal, resolve };
