/** Warning (not a failure): data-model keys that no page asks, except reserved keys and documents. */
import { DATA_MODEL_FILE, type DataModelInfo } from './data-model.ts';
import type { PageWalk } from './page-keys.ts';
import { problem, type Problem } from './problems.ts';

export function checkUnusedKeys(walks: PageWalk[], model: DataModelInfo): Problem[] {
  const asked = new Set(walks.flatMap((walk) => walk.keys.map((origin) => origin.key)));
  const problems: Problem[] = [];
  for (const entry of model.keys.values()) {
    if (asked.has(entry.key) || entry.reserved || entry.type === 'document') continue;
    problems.push(problem('unused key', DATA_MODEL_FILE, entry.key, 'no page asks this key',
      'ask it on a page, mark it "reserved": true if it is filled in another way, or remove it'));
  }
  return problems;
}
