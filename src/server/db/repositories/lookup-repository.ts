import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, LookupsTable } from '../tables.ts';

type Category = LookupsTable['category'];

/** One entry of a look-up list as stored, with its normalised search text. */
export type LookupRow = Selectable<LookupsTable>;

/** What a suggestion shows. */
export type LookupSummary = Pick<LookupRow, 'id' | 'name' | 'city' | 'state' | 'zip'>;

export type LookupRecord = Omit<LookupRow, 'search_text' | 'search_vector'>;

const SUMMARY = ['id', 'name', 'city', 'state', 'zip'] as const;
const DATA_COLUMNS = ['name', 'address_line_1', 'city', 'state', 'zip', 'country', 'search_text', 'search_vector'] as const;

/** Above every character of the normalised text ([a-z0-9 ]): the end of a prefix range in C collation. */
const PREFIX_END = '~';

/** Codes that start with the digits, in code order (the primary key). */
export function findByIdPrefix(db: Kysely<Database>, category: Category, digits: string, limit: number): Promise<LookupSummary[]> {
  return db.selectFrom('lookups').select(SUMMARY)
    .where('category', '=', category)
    .where('id', '>=', digits).where('id', '<', digits + PREFIX_END)
    .orderBy('id').limit(limit).execute();
}

/** Names that start with one of the prefixes, in name order: an exact name comes first. */
export async function findByNamePrefix(db: Kysely<Database>, category: Category, prefixes: string[], limit: number): Promise<LookupSummary[]> {
  const results = await Promise.all(prefixes.map((prefix) => db.selectFrom('lookups').select(SUMMARY)
    .select('search_text')
    .where('category', '=', category)
    .where('search_text', '>=', prefix).where('search_text', '<', prefix + PREFIX_END)
    .orderBy('search_text').orderBy('id').limit(limit).execute()));
  const rows = results.flat().sort((a, b) => compare(a.search_text, b.search_text) || compare(a.id, b.id));
  return rows.map(({ search_text: _searchText, ...summary }) => summary);
}

/** The full-text queries of a search (search-plan.ts). */
export interface WordQueries {
  required: string;
  requiredInName: string;
  optional: string[];
}

/**
 * Entries matching the required full-text query, in this order: all words in the name
 * before some in the city, more optional words matched first, then shorter names, then by
 * name. The GIN index finds the candidates.
 */
export function findByWords(db: Kysely<Database>, category: Category, queries: WordQueries, limit: number): Promise<LookupSummary[]> {
  const matches = (query: string) => sql<number>`(search_vector @@ to_tsquery('simple', ${query}))::int`;
  return db.selectFrom('lookups').select(SUMMARY)
    .where('category', '=', category)
    .where(sql<boolean>`search_vector @@ to_tsquery('simple', ${queries.required})`)
    .orderBy(matches(queries.requiredInName), 'desc')
    .$if(queries.optional.length > 0, (query) => query.orderBy(sql`${sql.join(queries.optional.map(matches), sql` + `)}`, 'desc'))
    .orderBy(sql`length(search_text)`)
    .orderBy('search_text').orderBy('id')
    .limit(limit).execute();
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

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
