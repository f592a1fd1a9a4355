/**
 * (a) Every answer key a page produces must be in the data model ("bad configuration").
 * (d, part) A key made by a use site's x-prefix or x-rename that the data model does not
 *     list is reported as "prefix not part of key", naming the prefix or rename.
 */
import { DATA_MODEL_FILE, type DataModelInfo } from './data-model.ts';
import type { PageWalk } from './page-keys.ts';
import { problem, type Problem } from './problems.ts';

export function checkDataModelKeys(walks: PageWalk[], model: DataModelInfo): Problem[] {
  if (!model.present) return [];
  const problems: Problem[] = [];
  for (const walk of walks) {
    for (const origin of walk.keys) {
      if (model.keys.has(origin.key)) continue;
      const written = origin.writtenIn === origin.pageFile ? '' : `; written as "${origin.name}" in schemas/${origin.writtenIn}`;
      if (origin.transform) {
        problems.push(problem('prefix not part of key', origin.pageFile, origin.key,
          `made by ${origin.transform} from "${origin.name}"${origin.writtenIn === origin.pageFile ? '' : ` (schemas/${origin.writtenIn})`}, but not in the data model (schemas/${DATA_MODEL_FILE})`,
          'correct the x-prefix or x-rename so it makes a key of the data model, or add the key there'));
      } else {
        problems.push(problem('bad configuration', origin.pageFile, origin.key,
          `not in the data model (schemas/${DATA_MODEL_FILE})${written}`,
          'add it there, or correct the key'));
      }
    }
  }
  return problems;
}
