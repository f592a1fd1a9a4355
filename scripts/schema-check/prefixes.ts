/**
 * (d) A prefix that is not part of its key: a definition's "x-prefixes" entry (which
 * numbers later instances: parent_2_first_name, guardian_2_graduate) that none of the keys
 * it produces starts with. The data model's own "prefix" is checked in data-model.ts;
 * keys an x-prefix or x-rename makes outside the data model in data-model-keys.ts.
 */
import type { PageWalk } from './page-keys.ts';
import { problem, type Problem } from './problems.ts';

export function checkPrefixes(walks: PageWalk[]): Problem[] {
  // a prefix is fine if any use of the definition produced a key starting with it
  const byPrefix = new Map<string, { file: string; definition: string; prefix: string; keys: Set<string> }>();
  for (const walk of walks) {
    for (const use of walk.uses) {
      for (const prefix of use.prefixes) {
        const id = `${use.prefixesFile}\u0000${use.definitionFile}\u0000${prefix}`;
        const entry = byPrefix.get(id) ?? { file: use.prefixesFile, definition: use.definitionFile, prefix, keys: new Set<string>() };
        use.keys.forEach((key) => entry.keys.add(key));
        byPrefix.set(id, entry);
      }
    }
  }
  const problems: Problem[] = [];
  for (const { file, definition, prefix, keys } of byPrefix.values()) {
    if (typeof prefix !== 'string' || !prefix) {
      problems.push(problem('prefix not part of key', file, String(prefix), `an "x-prefixes" entry of ${definition} is empty or not text`, 'write each prefix as text, e.g. "parent_"'));
      continue;
    }
    if ([...keys].some((key) => key.startsWith(prefix))) continue;
    const sample = [...keys].slice(0, 4).join(', ');
    problems.push(problem('prefix not part of key', file, prefix,
      `the "x-prefixes" entry of ${definition === file ? 'the definition' : `schemas/${definition}`} is not the start of any of its keys (${sample}${keys.size > 4 ? ', ...' : ''})`,
      'correct the prefix so keys start with it, or remove it from "x-prefixes"'));
  }
  return problems;
}
