/**
 * (f) Missing configuration: what the form needs and the schemas do not give.
 * - a page in text/frame.json "steps" without its .schema.json or .ui.json;
 * - a $ref (option list or definition) that does not resolve, or an option list without options;
 * - a ui:widget / ui:field the client theme does not provide (src/shared/form/widget-names.ts);
 * - a ui:optionsFilter / ui:optionsWhen without what it filters by;
 * - a coded answer (type "code" in the data model) asked without an option list or year list;
 * - partner.json or banners.json not valid against schemas/meta/.
 */
import { THEME_NAMES } from '../../src/shared/form/widget-names.ts';
import { declaredNames, isOptionsRef, rootedRef, type Json } from '../generate/expand.ts';
import type { DataModelInfo } from './data-model.ts';
import { walkJson, type SchemaTree } from './load.ts';
import { checkAgainstMeta } from './meta.ts';
import type { PageWalk } from './page-keys.ts';
import { problem, type Problem } from './problems.ts';

export function checkPageFiles(tree: SchemaTree): Problem[] {
  const problems: Problem[] = [];
  for (const step of tree.steps) {
    for (const [file, what] of [[step.schemaFile, 'questions and rules'], [step.uiFile, 'layout (ui:order, widgets)']] as const) {
      if (tree.files.has(file) || tree.problems.some((item) => item.file === file)) continue;
      problems.push(problem('missing configuration', file, step.id, `the page "${step.path}" is listed in schemas/text/frame.json "steps" but its ${what} file is missing`,
        `create schemas/${file}${file.endsWith('.ui.json') ? ' (it may be just {})' : ''}, or remove the step`));
    }
  }
  return problems;
}

/** Page files that no step lists: never shown (a warning). */
export function checkPagesOutsideSteps(tree: SchemaTree): Problem[] {
  const listed = new Set(tree.steps.flatMap((step) => [step.schemaFile, step.uiFile]));
  return [...tree.files.keys()]
    .filter((file) => /^pages\/.*\.(schema|ui)\.json$/.test(file) && !listed.has(file))
    .map((file) => problem('missing configuration', file, '', 'this page is not listed in schemas/text/frame.json "steps", so it is never shown',
      'add a step for it to schemas/text/frame.json, or delete the file'));
}

export function checkRefs(tree: SchemaTree): Problem[] {
  const problems: Problem[] = [];
  for (const [file, json] of tree.files) {
    if (!/^(pages|definitions)\/.*\.schema\.json$/.test(file)) continue;
    walkJson(json, (node, property) => {
      if (typeof node.$ref !== 'string') return;
      const target = rootedRef(file, node.$ref);
      const found = tree.files.get(target);
      const isOptions = isOptionsRef(node.$ref);
      if (!found) {
        if (tree.problems.some((item) => item.file === target)) return; // unreadable: reported already
        problems.push(problem('missing configuration', file, property, `$ref "${node.$ref}" does not resolve: schemas/${target} does not exist`,
          isOptions ? 'point $ref at a list in schemas/options/ (e.g. "../options/yes-no.json"), or create the list' : 'point $ref at a file under schemas/definitions/, or create it'));
        return;
      }
      if (isOptions) {
        const items = found.oneOf;
        const valid = Array.isArray(items) && items.length > 0 &&
          items.every((item: Json) => item && (typeof item.const === 'string' || typeof item.const === 'number') && typeof item.title === 'string');
        if (!valid) {
          problems.push(problem('missing configuration', file, property, `$ref "${node.$ref}": schemas/${target} is not an option list`,
            'give the list "oneOf": [{ "const": "Y", "title": "Yes" }, ...]'));
        }
      }
    });
  }
  return problems;
}

const THEME_LISTS = { 'ui:widget': THEME_NAMES.widgets, 'ui:field': THEME_NAMES.fields } as const;

export function checkWidgets(tree: SchemaTree): Problem[] {
  const problems: Problem[] = [];
  for (const [file, json] of tree.files) {
    if (!/^(pages|definitions)\/.*\.ui\.json$/.test(file)) continue;
    walkJson(json, (node, property) => {
      for (const [uiKey, names] of Object.entries(THEME_LISTS) as [keyof typeof THEME_LISTS, readonly string[]][]) {
        if (!(uiKey in node)) continue;
        const name = node[uiKey];
        if (typeof name === 'string' && names.includes(name)) continue;
        problems.push(problem('missing configuration', file, property || '(page)', `${uiKey} ${JSON.stringify(name)} is not provided by the client theme`,
          `use one of: ${names.join(', ')} (src/shared/form/widget-names.ts)`));
      }
    });
  }
  return problems;
}

/** Property names a .ui.json can refer to: those of its own schema file and of every definition. */
function propertyNames(tree: SchemaTree, uiFile: string): Set<string> {
  const names = new Set<string>();
  const schemaFiles = [uiFile.replace(/\.ui\.json$/, '.schema.json'), ...[...tree.files.keys()].filter((file) => /^definitions\/.*\.schema\.json$/.test(file))];
  for (const file of schemaFiles) {
    const schema = tree.files.get(file);
    if (!schema) continue;
    walkJson(schema, (node) => {
      if (node.properties && typeof node.properties === 'object') declaredNames(file, { properties: node.properties }).forEach((name) => names.add(name));
      for (const group of ['x-override', 'x-add-properties'] as const) {
        if (node[group] && typeof node[group] === 'object') walkJson(node[group], (_inner, property) => property && names.add(property));
      }
      for (const renamed of Object.values((node['x-rename'] ?? {}) as Record<string, string>)) names.add(renamed);
    });
  }
  return names;
}

export function checkOptionRules(tree: SchemaTree): Problem[] {
  const problems: Problem[] = [];
  for (const [file, json] of tree.files) {
    if (!/^(pages|definitions)\/.*\.ui\.json$/.test(file)) continue;
    let names: Set<string> | undefined;
    walkJson(json, (node, property) => {
      const filter = node['ui:optionsFilter'];
      if (filter !== undefined) {
        if (!filter || typeof filter !== 'object' || typeof filter.by !== 'string' || typeof filter.attribute !== 'string') {
          problems.push(problem('missing configuration', file, property, `ui:optionsFilter needs "by" (the answer it filters by) and "attribute" (the option attribute to match); found ${JSON.stringify(filter)}`,
            'write "ui:optionsFilter": { "by": "country", "attribute": "country", "when_blank": ["USA", "CAN"] }'));
        } else if (!(names ??= propertyNames(tree, file)).has(filter.by)) {
          problems.push(problem('extra keys', file, filter.by, `ui:optionsFilter of "${property}" filters by "${filter.by}", which is no question of its block`,
            'name a question of the same block (e.g. "country")'));
        }
      }
      const when = node['ui:optionsWhen'];
      if (when !== undefined && (!when || typeof when !== 'object' || typeof when.key !== 'string')) {
        problems.push(problem('missing configuration', file, property, `ui:optionsWhen needs "key" (the answer the options depend on); found ${JSON.stringify(when)}`,
          'write "ui:optionsWhen": { "key": "<answer key>", "clear": "change" }'));
      }
    });
  }
  return problems;
}

export function checkCodedAnswers(walks: PageWalk[], model: DataModelInfo): Problem[] {
  const problems: Problem[] = [];
  for (const walk of walks) {
    for (const origin of walk.keys) {
      if (model.keys.get(origin.key)?.type !== 'code') continue;
      if (isOptionsRef(origin.schema.$ref) || origin.schema['x-years']) continue;
      problems.push(problem('missing configuration', origin.pageFile, origin.key,
        `a coded answer (type "code" in schemas/data-model.json) asked without an option list or year list${origin.writtenIn === origin.pageFile ? '' : ` (written as "${origin.name}" in schemas/${origin.writtenIn})`}`,
        'give it "$ref": "../options/<list>.json" or "x-years": { "count": ..., "direction": "past", "start_offset": 0 }, or make it "string" in the data model'));
    }
  }
  return problems;
}

export function checkSettings(tree: SchemaTree): Problem[] {
  return [
    ...checkAgainstMeta(tree, 'partner.json', 'meta/partner.schema.json', 'missing configuration'),
    ...checkAgainstMeta(tree, 'banners.json', 'meta/banners.schema.json', 'missing configuration'),
  ];
}
