/**
 * The application file's items (schemas/file-items.json): the file against its schema,
 * then what a schema cannot say. Item ids are unique (a state is stored by id); a
 * `required_when` names a question the form asks (or a key of the data model), with an operator the form knows and,
 * for a coded question, one of its codes (the page conditions' own check); a text or
 * counselor mail names only the placeholders the application fills. Missing Spanish is
 * the translations check's (the file is translated like the pages).
 */
import { COUNSELOR_REQUEST_PLACEHOLDERS, TEXT_PLACEHOLDERS } from '../../src/shared/file-items/placeholders.ts';
import type { Json } from '../generate/expand.ts';
import { checkCondition } from './conditions.ts';
import type { DataModelInfo } from './data-model.ts';
import type { SchemaTree } from './load.ts';
import { checkAgainstMeta } from './meta.ts';
import type { PageWalk } from './page-keys.ts';
import { problem, type Problem } from './problems.ts';

const FILE = 'file-items.json';

const named = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
const listed = (names: readonly string[]) => (names.length ? names.map((name) => `{${name}}`).join(', ') : 'no placeholder');

function placeholderProblems(text: unknown, allowed: readonly string[], key: string, where: string, path: (string | number)[]): Problem[] {
  if (typeof text !== 'string') return [];
  return [...new Set(named(text))].filter((name) => !allowed.includes(name)).map((name) => problem('bad configuration', FILE, key,
    `${where} names {${name}}, which the application does not fill`, `use only ${listed(allowed)}`, { file: FILE, path }));
}

/** Each simple condition of a rule ({ key, op, value }), with its JSON path, through "all" and "any". */
function simpleConditions(condition: unknown, path: (string | number)[]): { node: Json; path: (string | number)[] }[] {
  if (!condition || typeof condition !== 'object') return [];
  const node = condition as Json;
  for (const group of ['all', 'any'] as const) {
    if (Array.isArray(node[group])) return node[group].flatMap((part: unknown, index: number) => simpleConditions(part, [...path, group, index]));
  }
  return 'op' in node || 'key' in node ? [{ node, path }] : [];
}

export function checkFileItems(tree: SchemaTree, walks: PageWalk[], model: DataModelInfo): Problem[] {
  const file = tree.files.get(FILE) as Json | undefined;
  const problems: Problem[] = [];
  const items: Json[] = Array.isArray(file?.items) ? file.items : [];
  const formKeys = new Set(walks.flatMap((walk) => walk.keys.map((origin) => origin.key)));
  const ruleProblems = new Set<number>();

  items.forEach((item, index) => {
    const id = typeof item?.id === 'string' ? item.id : `items[${index}]`;
    for (const { node, path } of simpleConditions(item?.required_when, ['items', index, 'required_when'])) {
      const before = problems.length;
      // as in the pages' conditions, a key of the data model no page asks (a reserved one) may be tested
      if (typeof node.key !== 'string' || !(formKeys.has(node.key) || model.keys.has(node.key))) {
        problems.push(problem('extra keys', FILE, typeof node.key === 'string' ? node.key : id,
          `the item "${id}" is required when ${JSON.stringify(node.key)} ..., which no page asks and schemas/data-model.json does not have, so the rule never sees an answer`,
          'name an answer key a page asks (schemas/pages/), e.g. "test_optional"', { file: FILE, path: [...path, 'key'] }));
      } else {
        problems.push(...checkCondition(node, path, FILE, tree, walks));
      }
      if (problems.length > before) ruleProblems.add(index);
    }
  });

  // a rule's slip is named above in words; the schema's own complaint about it would only repeat it
  const meta = checkAgainstMeta(tree, FILE, 'meta/file-items.schema.json', 'bad configuration')
    .filter((item) => ![...ruleProblems].some((index) => item.key.startsWith(`items.${index}.required_when`)));
  problems.unshift(...meta);
  if (!file) return problems;

  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (typeof item?.id !== 'string') return;
    if (seen.has(item.id)) {
      problems.push(problem('bad configuration', FILE, item.id, 'two items have this id, so their states would be stored as one',
        'give each item its own id (and never rename one applicants already have)', { file: FILE, path: ['items', index, 'id'] }));
    }
    seen.add(item.id);
    const request = item.counselor_request as Json | undefined;
    for (const part of ['subject', 'text'] as const) {
      problems.push(...placeholderProblems(request?.[part], COUNSELOR_REQUEST_PLACEHOLDERS, item.id, `its counselor_request ${part}`, ['items', index, 'counselor_request', part]));
    }
    if (typeof request?.subject === 'string' && /[\r\n]/.test(request.subject)) {
      problems.push(problem('bad configuration', FILE, item.id, 'its counselor_request subject has a line break', 'write the subject on one line', { file: FILE, path: ['items', index, 'counselor_request', 'subject'] }));
    }
  });
  for (const [name, text] of Object.entries((file.texts ?? {}) as Json)) {
    problems.push(...placeholderProblems(text, TEXT_PLACEHOLDERS[name] ?? [], `texts.${name}`, 'the text', ['texts', name]));
  }
  return problems;
}
