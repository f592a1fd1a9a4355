import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCsv } from '../../scripts/lookups/csv-lines.ts';
import type { LookupCategory } from '../../src/server/lookups/categories.ts';

export interface Query {
  kind: string;
  category: LookupCategory;
  text: string;
}

/** The kinds that are a whole school name: what the search sends once typing stops on a name written out. */
export const WHOLE_NAME_KINDS = ['whole name, as listed', 'whole name, spelled out'];

/** How many spelled-out names: what one applicant's searches of a few schools add up to over a week of applicants. */
const SPELLED_OUT_NAMES = 42;

/**
 * What applicants type: a name letter by letter, from its first or a later word, with or
 * without "high school"; and whole names, which the search sends as they stand once the
 * applicant stops typing (debounced): as the list has them, and spelled out as people
 * write them ("Russell County High School", the federal directory's name in the list's
 * nces_name column, for a list that says "RUSSELL CO HS").
 */
export function realisticQueries(dataDir: string): Query[] {
  const schools = readCsv(readFileSync(join(dataDir, 'hs_ceeb_us.csv'), 'utf8')).lines
    .flatMap((line) => ('fields' in line ? [line.fields] : []));
  const names = schools.map((fields) => fields.name!);
  const random = seeded(42);
  const pick = () => names[Math.floor(random() * names.length)]!.toLowerCase();
  const queries: Query[] = [];
  const add = (kind: string, text: string, category: LookupCategory = 'hs_ceeb') => queries.push({ kind, category, text });
  for (let i = 0; i < 40; i++) {
    const name = pick();
    for (const length of [1, 2, 3, 5, 8, 12]) add('typing a name (1-12 letters)', name.slice(0, length));
    const words = name.split(' ');
    if (words.length > 2) add('a later word first', words.slice(1, 3).join(' ').slice(0, 9));
    add('name without "high school"', name.replace(/\b(high school|hs|high|school)\b/g, '').trim());
    add('whole name, as listed', name);
  }
  const spelledOut = schools.map((fields) => fields.nces_name ?? '').filter((name) => name !== '');
  const another = seeded(57);
  for (let i = 0; i < SPELLED_OUT_NAMES; i++) add('whole name, spelled out', spelledOut[Math.floor(another() * spelledOut.length)]!);
  for (const text of ['high', 'school', 'high school', 'christian academy', 'central high school', 'st', 'saint', 'st marys', 'lincoln hs', 'washington senior high']) {
    add('common words', text);
  }
  for (const text of ['univ', 'state univ', 'community college', 'university of', 'texas a', 'harvard', 'mit', 'ohio state', 'calif']) {
    add('colleges', text, 'college_ceeb');
  }
  for (const text of ['0', '02', '021', '0213', '02138', '9', '94', '941', '9410', '94103']) add('ZIP digits', text, 'address');
  for (const text of ['s', 'sa', 'salt', 'salt lake', 'new y', 'springfield', 'san', 'port']) add('city', text, 'address');
  return queries;
}

/** mulberry32: the same "random" names on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
