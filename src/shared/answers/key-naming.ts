/**
 * Answer key naming (spec section 3): keys may carry a prefix; repeated keys number
 * their later instances. The first instance uses the base key; later ones put the
 * number after the prefix (college_2_name, hs_2_class_name, parent_2_first_name) or,
 * when the prefix is the whole key, at the end (activ_athl_2).
 */
export function instanceKey(baseKey: string, prefix: string, instance: number): string {
  if (instance <= 1) return baseKey;
  if (baseKey === prefix) return `${baseKey}_${instance}`;
  if (!baseKey.startsWith(prefix)) throw new Error(`prefix "${prefix}" is not part of key "${baseKey}"`);
  return `${prefix}${instance}_${baseKey.slice(prefix.length)}`;
}

/** Numbers a key with the first registered prefix it starts with; other keys stay. */
export function numberKey(key: string, prefixes: readonly string[], instance: number): string {
  const prefix = prefixes.find((candidate) => key === candidate || key.startsWith(candidate));
  return prefix === undefined ? key : instanceKey(key, prefix, instance);
}

export const DESC_SUFFIX = '_desc';

export function descKey(key: string): string {
  return `${key}${DESC_SUFFIX}`;
}
