import { instanceKey } from '../../src/shared/answers/key-naming.ts';
import type { DataModel } from '../../src/shared/generated/types.ts';
import { readJson } from '../schema-files.ts';

export type DataModelEntry = NonNullable<DataModel['keys'][string]>;

/** The data model with every instance of a repeated key written out. */
export function expandedDataModel(): { version: number; keys: Record<string, DataModelEntry & { base: string }> } {
  const model = readJson<DataModel>('data-model.json');
  const keys: Record<string, DataModelEntry & { base: string }> = {};
  for (const [key, entry] of Object.entries(model.keys) as [string, DataModelEntry][]) {
    const count = entry.instances ?? 1;
    for (let n = 1; n <= count; n++) keys[instanceKey(key, entry.prefix ?? key, n)] = { ...entry, base: key };
  }
  return { version: model.version, keys };
}
