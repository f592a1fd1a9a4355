/**
 * (e) Add-another: "x-repeat": { "button_id", "max" } may allow at most 10 components
 * (spec section 5, "Text area and add-another"; section 9: add-another maximum 10).
 */
import { walkJson, type SchemaTree } from './load.ts';
import { problem, type Problem } from './problems.ts';

export const ADD_ANOTHER_MAX = 10;

export function checkRepeatMax(tree: SchemaTree): Problem[] {
  const problems: Problem[] = [];
  const buttons = new Map<string, string>();
  for (const [file, json] of tree.files) {
    if (!/^(pages|definitions)\/.*\.schema\.json$/.test(file)) continue;
    walkJson(json, (node, property) => {
      if (!('x-repeat' in node)) return;
      const repeat = node['x-repeat'];
      const max = repeat && typeof repeat === 'object' ? repeat.max : undefined;
      if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) {
        problems.push(problem('add-another maximum', file, property, `"x-repeat" needs a whole-number "max" of at least 1 (found ${JSON.stringify(max)})`,
          `write "x-repeat": { "button_id": "add_${property}", "max": ${ADD_ANOTHER_MAX} } or a smaller max`));
      } else if (max > ADD_ANOTHER_MAX) {
        problems.push(problem('add-another maximum', file, property, `add-another maximum ${max} is above ${ADD_ANOTHER_MAX} (spec section 5)`,
          `set "x-repeat": { "max": ${ADD_ANOTHER_MAX} } or less`));
      }
      if (!repeat || typeof repeat !== 'object' || typeof repeat.button_id !== 'string' || !repeat.button_id) {
        problems.push(problem('missing configuration', file, property, '"x-repeat" has no "button_id" (the add-another button, stored with its count)',
          `add "button_id": "add_${property}" to "x-repeat"`));
      } else if (buttons.has(repeat.button_id)) {
        problems.push(problem('bad configuration', file, property, `"button_id" "${repeat.button_id}" is also used by ${buttons.get(repeat.button_id)}; both would share one add-another count`,
          'give each "x-repeat" its own "button_id"'));
      } else {
        buttons.set(repeat.button_id, `"${property}" in schemas/${file}`);
      }
    });
  }
  return problems;
}
