/**
 * The data model with every instance written out, as the generator sees it
 * (scripts/generate/data-model.ts), but tolerant: a prefix that is not part of its key is
 * reported instead of stopping the check.
 */
import { instanceKey } from '../../src/shared/answers/key-naming.ts';
import type { Json } from '../generate/expand.ts';
import type { SchemaTree } from './load.ts';
import { checkAgainstMeta } from './meta.ts';
import { problem, type Problem } from './problems.ts';

export const DATA_MODEL_FILE = 'data-model.json';

export interface ModelKey {
  key: string;
  base: string;
  type: string;
  reserved: boolean;
}

export interface DataModelInfo {
  /** every key with its instances (parent_first_name, parent_2_first_name) */
  keys: Map<string, ModelKey>;
  /** false when the data model could not be read at all */
  present: boolean;
}

export function readDataModel(tree: SchemaTree): { model: DataModelInfo; problems: Problem[] } {
  const problems = checkAgainstMeta(tree, DATA_MODEL_FILE, 'meta/data-model.schema.json', 'bad configuration');
  const raw = tree.files.get(DATA_MODEL_FILE);
  const keys = new Map<string, ModelKey>();
  if (!raw || typeof raw.keys !== 'object' || !raw.keys) return { model: { keys, present: false }, problems };
  for (const [base, entry] of Object.entries(raw.keys as Record<string, Json>)) {
    if (!entry || typeof entry !== 'object') continue;
    const prefix = typeof entry.prefix === 'string' ? entry.prefix : undefined;
    if (prefix !== undefined && !base.startsWith(prefix)) {
      problems.push(problem('prefix not part of key', DATA_MODEL_FILE, base,
        `its "prefix" "${prefix}" is not the start of the key, so its later instances cannot be named`,
        `make "prefix" the start of the key (e.g. "parent_" for "parent_first_name"), or correct the key`));
      keys.set(base, { key: base, base, type: String(entry.type), reserved: entry.reserved === true });
      continue;
    }
    const count = typeof entry.instances === 'number' ? Math.max(1, Math.min(entry.instances, 10)) : 1;
    for (let n = 1; n <= count; n++) {
      const key = instanceKey(base, prefix ?? base, n);
      keys.set(key, { key, base, type: String(entry.type), reserved: entry.reserved === true });
    }
  }
  return { model: { keys, present: true }, problems };
}
