/**
 * A conditional rule that cannot work is refused where it is written. Two slips pass every
 * other check and stop applicants: a misspelt operator ("notEqual") makes the condition
 * never true, and a value written as the option's label ("Yes" instead of its code "Y")
 * never matches an answer, which is stored as its code. Each condition of the page and
 * definition files ({ "key", "op", "value" }, wherever it sits: "ui:hideWhen", an "if"'s
 * "when", "ui:hideAllBut", "ui:optionsWhen") is read against the operators the form knows
 * and the codes of the question it tests.
 */
import { OPERATORS } from '../../src/shared/answers/conditions.ts';
import { isOptionsRef, rootedRef, type Json } from '../generate/expand.ts';
import type { SchemaTree } from './load.ts';
import type { KeyOrigin, PageWalk } from './page-keys.ts';
import { problem, type Problem } from './problems.ts';

/** Operators that compare an answer with codes, and so need codes of its list. */
const CODE_OPERATORS = new Set(['equals', 'notEquals', 'in', 'notIn']);

interface Codes {
  /** code -> the option's title, in the list's order */
  titles: Map<string, string>;
  /** what a person would call the list in a message */
  source: string;
}

/** The codes a question's answer can be: its option list's, true and false for a check box; undefined for free text. */
function codesOf(origin: KeyOrigin, tree: SchemaTree): Codes | undefined {
  const schema = origin.schema;
  if (schema.type === 'boolean') return { titles: new Map([['true', 'checked'], ['false', 'not checked']]), source: 'a check box' };
  if (isOptionsRef(schema.$ref)) {
    const file = rootedRef(origin.writtenIn, schema.$ref);
    const list = tree.files.get(file)?.oneOf as Json[] | undefined;
    if (!Array.isArray(list)) return undefined; // a missing list is reported by the configuration check
    return { titles: new Map(list.map((item) => [String(item.const), String(item.title ?? item.const)])), source: `schemas/${file}` };
  }
  if (Array.isArray(schema.enum)) return { titles: new Map(schema.enum.map((code: unknown) => [String(code), String(code)])), source: 'its "enum"' };
  return undefined;
}

/**
 * The questions a condition's key can mean: in a page, an answer key of the page; in a
 * definition (or a page's ui for a block that uses one), a question of that block as
 * written, whichever instance.
 */
function questionsNamed(key: string, walks: PageWalk[]): KeyOrigin[] {
  const all = walks.flatMap((walk) => walk.keys);
  const exact = all.filter((origin) => origin.key === key);
  return exact.length ? exact : all.filter((origin) => origin.name === key);
}

/** The codes, with their titles; a long list (the countries) by its first few and its size. */
function listOf(codes: Codes): string {
  const named = [...codes.titles].map(([code, title]) => (code === title ? `"${code}"` : `"${code}" (${title})`));
  return named.length > 12 ? `${named.slice(0, 10).join(', ')} ... (${named.length} codes, listed in ${codes.source})` : named.join(', ');
}

/** A few letters apart: "notEqual" for "notEquals". */
function closest(word: string, candidates: readonly string[]): string | undefined {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, index) => index);
    for (let i = 1; i <= a.length; i++) {
      let previous = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const kept = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1));
        previous = kept;
      }
    }
    return row[b.length]!;
  };
  const best = [...candidates].sort((a, b) => distance(word, a) - distance(word, b))[0];
  return best && distance(word, best) <= 3 ? best : undefined;
}

export function checkCondition(condition: Json, path: (string | number)[], file: string, tree: SchemaTree, walks: PageWalk[]): Problem[] {
  const { key, op } = condition;
  const where = typeof key === 'string' ? key : '';
  if (!(OPERATORS as readonly string[]).includes(op)) {
    const guess = typeof op === 'string' ? closest(op, OPERATORS) : undefined;
    return [problem('bad configuration', file, where,
      `"op": ${JSON.stringify(op)} is no operator, so this condition is never true${guess ? ` (did you mean "${guess}"?)` : ''}`,
      `write one of ${OPERATORS.map((name) => `"${name}"`).join(', ')}`, { file, path: [...path, 'op'] })];
  }
  if (!CODE_OPERATORS.has(op) || typeof key !== 'string') return [];
  const questions = questionsNamed(key, walks);
  const codeLists = questions.map((origin) => codesOf(origin, tree));
  // a free-text question (or none found: the extra-keys check says so) takes any value
  if (!questions.length || codeLists.some((codes) => !codes)) return [];
  const codes = codeLists[0]!;
  const known = new Set(codeLists.flatMap((list) => [...list!.titles.keys()]));
  const values: { value: unknown; at: (string | number)[] }[] = Array.isArray(condition.value)
    ? condition.value.map((value: unknown, index: number) => ({ value, at: [...path, 'value', index] }))
    : [{ value: condition.value, at: [...path, 'value'] }];
  const problems: Problem[] = [];
  const title = String(questions[0]!.schema.title ?? key);
  for (const { value, at } of values) {
    // answers are compared as stored: a code is a string ("6", not 6), a check box true or false;
    // "" is the answer not given ("notIn": ["USA", "CAN", ""])
    if (codes.source === 'a check box' ? typeof value === 'boolean' : typeof value === 'string' && (value === '' || known.has(value))) continue;
    const byTitle = [...codes.titles].find(([, optionTitle]) => optionTitle.toLowerCase() === String(value).toLowerCase())?.[0];
    const write = codes.source === 'a check box' ? 'true or false (no quotes)' : byTitle ? `the code "${byTitle}" (the code of "${codes.titles.get(byTitle)}")` : 'one of these codes';
    problems.push(problem('bad configuration', file, key,
      `the condition's value ${JSON.stringify(value)} is no code of "${title}" (${codes.source}), whose answers are stored as ${listOf(codes)}: the condition ${op === 'notEquals' || op === 'notIn' ? 'is always true' : 'is never true'}`,
      `write ${write}`, { file, path: at }));
  }
  return problems;
}

export function checkConditions(tree: SchemaTree, walks: PageWalk[]): Problem[] {
  const problems: Problem[] = [];
  for (const [file, json] of tree.files) {
    if (!/^(pages|definitions)\/[^/]+\.json$/.test(file)) continue;
    const visit = (value: unknown, path: (string | number)[]): void => {
      if (Array.isArray(value)) {
        value.forEach((item, index) => visit(item, [...path, index]));
        return;
      }
      if (!value || typeof value !== 'object') return;
      const node = value as Json;
      if ('op' in node) problems.push(...checkCondition(node, path, file, tree, walks));
      for (const [name, child] of Object.entries(node)) visit(child, [...path, name]);
    };
    visit(json, []);
  }
  return problems;
}
