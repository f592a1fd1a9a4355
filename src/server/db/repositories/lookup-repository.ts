import { sql, type Kysely, type Selectable } from 'kysely';
import { nameStatement } from '../prepared-statement.ts';
import type { Database, LookupsTable } from '../tables.ts';

type Category = LookupsTable['category'];

/** One entry of a look-up list as stored, with its normalised search text. */
export type LookupRow = Selectable<LookupsTable>;

/** What a suggestion shows. */
export type LookupSummary = Pick<LookupRow, 'id' | 'name' | 'city' | 'state' | 'zip'>;

export type LookupRecord = Omit<LookupRow, 'search_text' | 'search_vector'>;

const DATA_COLUMNS = ['name', 'address_line_1', 'city', 'state', 'zip', 'country', 'search_text', 'search_vector'] as const;

/** Above every character of the normalised text ([a-z0-9 ]): the end of a prefix range in C collation. */
const PREFIX_END = '~';

/** The full-text queries of a search (search-plan.ts). */
export interface WordQueries {
  required: string;
  requiredInName: string;
  optional: string[];
}

/** One typed text's search, tier by tier (search-plan.ts). */
export interface SuggestionSearch {
  /** 1. codes that start with these digits, in code order */
  idPrefix: string | undefined;
  /** 2. names that start with one of these, in name order: an exact name first */
  namePrefixes: string[];
  /** 3. entries with the required words: all in the name first, more optional words, shorter names */
  words: WordQueries | undefined;
}

/** The statement's shapes: with or without codes, one or two name prefixes, no word tier or one with 0 to 3 optional words: 20 at most. */
const MAX_NAMED_OPTIONAL_WORDS = 3;

/**
 * Suggestions in one statement, best first: each statement is a trip to the database (to
 * PGlite's thread, or PostgreSQL), and the tiers as statements of their own took up to four
 * trips a keystroke. Each tier is ordered and limited on its own (the prefix ranges use the
 * btree, the words the GIN index); the word tier, the costly one, runs only when the cheaper
 * tiers found fewer than `limit` (an uncorrelated count: PostgreSQL evaluates it once and
 * skips the branch). An entry two tiers find comes twice, the better first: the caller keeps
 * the first. The word tier returns up to 2 x limit, enough to fill up after such repeats.
 * The statement is named (prepared-statement.ts): PGlite and PostgreSQL parse each of its few
 * shapes once instead of at every keystroke.
 */
export async function findSuggestionRows(
  db: Kysely<Database>, category: Category, search: SuggestionSearch, limit: number,
): Promise<LookupSummary[]> {
  const summary = sql`id, name, city, state, zip`;
  const cheapTiers = [
    ...(search.idPrefix === undefined ? [] : [sql`(select ${summary}, 1 as tier, ''::text collate "C" as search_text from lookups
      where category = ${category} and id >= ${search.idPrefix} and id < ${search.idPrefix + PREFIX_END}
      order by id limit ${limit})`]),
    ...search.namePrefixes.map((prefix) => sql`(select ${summary}, 2 as tier, search_text from lookups
      where category = ${category} and search_text >= ${prefix} and search_text < ${prefix + PREFIX_END}
      order by search_text, id limit ${limit})`),
  ];
  const words = search.words;
  const matches = (query: string) => sql`(search_vector @@ to_tsquery('simple', ${query}))::int`;
  const wordTier = words ? sql`union all (
      select ${summary}, 3, search_text, ${matches(words.requiredInName)} as in_name,
        ${words.optional.length ? sql.join(words.optional.map(matches), sql` + `) : sql`0`} as optional_words,
        length(search_text) as text_length
      from lookups
      where category = ${category} and search_vector @@ to_tsquery('simple', ${words.required})
        and (select count(*) from cheap) < ${limit}
      order by in_name desc, optional_words desc, text_length, search_text, id
      limit ${2 * limit})` : sql``;
  const query = sql<LookupSummary>`
    with cheap as (${sql.join(cheapTiers, sql` union all `)})
    select id, name, city, state, zip from (
      select *, 0 as in_name, 0 as optional_words, 0 as text_length from cheap
      ${wordTier}
    ) as found
    order by tier, in_name desc, optional_words desc, text_length, search_text, id`.compile(db);
  // named: parsed once, not at every keystroke; a text of many filler words keeps its own shape unnamed
  if ((words?.optional.length ?? 0) <= MAX_NAMED_OPTIONAL_WORDS) nameStatement(query.sql);
  return (await db.executeQuery(query)).rows;
}

export function findLookup(db: Kysely<Database>, category: Category, id: string): Promise<LookupRecord | undefined> {
  return db.selectFrom('lookups')
    .select(['category', 'id', 'name', 'address_line_1', 'city', 'state', 'zip', 'country'])
    .where('category', '=', category).where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Inserts new entries and updates changed ones; an entry that is already as given is not
 * touched, so loading the same list again changes nothing. Returns what happened.
 */
export async function upsertLookups(db: Kysely<Database>, rows: LookupRow[]): Promise<{ inserted: number; updated: number }> {
  if (rows.length === 0) return { inserted: 0, updated: 0 };
  const changed = await db.insertInto('lookups').values(rows)
    .onConflict((conflict) => conflict.columns(['category', 'id'])
      .doUpdateSet(Object.fromEntries(DATA_COLUMNS.map((column) => [column, sql.ref(`excluded.${column}`)])))
      .where(sql<boolean>`(${sql.join(DATA_COLUMNS.map((column) => sql.ref(`lookups.${column}`)))})
        is distinct from (${sql.join(DATA_COLUMNS.map((column) => sql.ref(`excluded.${column}`)))})`))
    // xmax is 0 on a row this statement inserted, set on one it updated
    .returning(sql<boolean>`xmax = 0`.as('inserted'))
    .execute();
  const inserted = changed.filter((row) => row.inserted).length;
  return { inserted, updated: changed.length - inserted };
}

/** Fresh planner statistics after a load: PGlite has no autovacuum to gather them. */
export async function analyzeLookups(db: Kysely<Database>): Promise<void> {
  await sql`analyze lookups`.execute(db);
}

/** Removes the entries of a category that are not in the list (loading a list that replaces another). */
export async function deleteLookupsExcept(db: Kysely<Database>, category: Category, keepIds: string[]): Promise<number> {
  const result = await db.deleteFrom('lookups')
    .where('category', '=', category)
    .where(sql<boolean>`not (id = any(${keepIds}::text[]))`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function countLookups(db: Kysely<Database>, category: Category): Promise<number> {
  const row = await db.selectFrom('lookups').select((eb) => eb.fn.countAll<string>().as('count'))
    .where('category', '=', category).executeTakeFirstOrThrow();
  return Number(row.count);
}
