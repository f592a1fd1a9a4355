/**
 * (b) Extra keys: a key that a rule, condition, clear list, tab or required list names
 * but that no page asks and the data model does not know. Runs on the form as the
 * generator builds it (conditions and lists already resolved to final keys), so a key
 * still written as-is there is one no scope declares.
 */
import { conditionKeys, type Condition } from '../../src/shared/answers/conditions.ts';
import { DESC_SUFFIX } from '../../src/shared/answers/key-naming.ts';
import type { GeneratedForm } from '../generate/form-model.ts';
import type { Json } from '../generate/expand.ts';
import type { DataModelInfo } from './data-model.ts';
import { walkJson, type SchemaTree } from './load.ts';
import { problem, type Problem } from './problems.ts';

interface Named {
  page: string;
  key: string;
  /** what names it, for the message */
  where: string;
  /** the file kind it is written in: schema (rules) or ui (conditions, clear lists, tabs) */
  in: 'schema' | 'ui';
}

function namedKeys(form: GeneratedForm): Named[] {
  const named: Named[] = [];
  for (const page of form.model.pageOrder) {
    const model = form.model.pages[page];
    const add = (keys: string[], where: string, kind: 'schema' | 'ui') => keys.forEach((key) => named.push({ page, key, where, in: kind }));
    for (const rule of model.visibility) {
      add(conditionKeys(rule.when), 'a ui:hideWhen / ui:hideAllBut condition', 'ui');
      add(rule.clear, 'a clear list (ui:clearOnHide)', 'ui');
    }
    for (const rule of model.optionRules) {
      if (rule.controller) add([rule.controller], 'a ui:optionsWhen / ui:optionsFilter', 'ui');
      for (const group of rule.groups ?? []) add(conditionKeys(group.when), 'a ui:optionsWhen condition', 'ui');
    }
    for (const tabs of model.tabs) for (const tab of tabs.tabs) add(tab.keys, `the tab "${tab.id}" of ui:tabs "${tabs.tab_id}"`, 'ui');
    const flat = form.validation[page] as Json;
    add((flat.required ?? []) as string[], 'a "required" list', 'schema');
    for (const rule of (flat.allOf ?? []) as Json[]) {
      add(conditionKeys(rule.if.when as Condition), 'an allOf "if": { "when" } condition', 'schema');
      add((rule.then.required ?? []) as string[], 'a "required" list in allOf "then"', 'schema');
      add(Object.keys((rule.then.properties ?? {}) as Json), 'a rule in allOf "then"', 'schema');
    }
  }
  return named;
}

/** The file a key is literally written in: the page's own files first, then the definitions. */
function writtenIn(tree: SchemaTree, page: string, key: string, kind: 'schema' | 'ui'): string {
  const own = [`pages/${page}.${kind}.json`, `pages/${page}.${kind === 'ui' ? 'schema' : 'ui'}.json`];
  const definitions = [...tree.files.keys()].filter((file) => file.startsWith('definitions/')).sort((a, b) => Number(b.endsWith(`.${kind}.json`)) - Number(a.endsWith(`.${kind}.json`)));
  for (const file of [...own, ...definitions]) {
    if (JSON.stringify(tree.files.get(file) ?? null).includes(JSON.stringify(key))) return file;
  }
  return own[0]!;
}

export function checkExtraKeys(form: GeneratedForm, model: DataModelInfo, tree: SchemaTree): Problem[] {
  const asked = new Set(form.model.pageOrder.flatMap((page) => form.model.pages[page].keys));
  const coded = (key: string) => {
    const field = form.model.fields[key];
    return Boolean(field?.options || field?.years || model.keys.get(key)?.type === 'code');
  };
  const known = (key: string) => asked.has(key) || model.keys.has(key) ||
    (key.endsWith(DESC_SUFFIX) && coded(key.slice(0, -DESC_SUFFIX.length)));
  const problems: Problem[] = [];
  const reported = new Set<string>();
  for (const { page, key, where, in: kind } of namedKeys(form)) {
    if (known(key) || reported.has(`${page}\u0000${key}`)) continue;
    reported.add(`${page}\u0000${key}`);
    problems.push(problem('extra keys', writtenIn(tree, page, key, kind), key,
      `named in ${where} of the page "${page}", but no page asks it and it is not in the data model (schemas/data-model.json)`,
      'correct the key to one a page asks (a block\'s own keys are written without their prefix), or ask it on a page'));
  }
  return problems;
}

/** ui:hideAllBut "keep" lists name properties of the block; a name that no schema declares is an extra key. */
export function checkKeepLists(tree: SchemaTree): Problem[] {
  const declared = new Set<string>();
  for (const [file, json] of tree.files) {
    if (!/^(pages|definitions)\/.*\.schema\.json$/.test(file)) continue;
    walkJson(json, (node) => Object.keys((node.properties ?? {}) as Json).forEach((name) => declared.add(name)));
  }
  const problems: Problem[] = [];
  for (const [file, json] of tree.files) {
    if (!/^(pages|definitions)\/.*\.ui\.json$/.test(file)) continue;
    walkJson(json, (node, property) => {
      const keep = node['ui:hideAllBut']?.keep;
      if (!Array.isArray(keep)) return;
      for (const name of keep) {
        if (typeof name === 'string' && declared.has(name)) continue;
        problems.push(problem('extra keys', file, String(name), `ui:hideAllBut of "${property}" keeps "${name}", which no schema declares`,
          'name a question of the block, as written in its schema'));
      }
    });
  }
  return problems;
}
