import { sql, type Kysely } from 'kysely';

/**
 * Look-up lists (schools by CEEB code, US ZIP codes), loaded by `npm run import:lookups`.
 * Names are kept as given for display and searched by a normalised form
 * (src/server/lookups/normalise.ts): a btree on it for "starts with", a GIN index on a
 * full-text vector (name words, then city words) for "a word starts with". Both are built
 * into PostgreSQL: no extension needed.
 * Codes and search text use the C collation, so prefix ranges and sorting are plain byte order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lookups')
    .addColumn('category', 'text', (c) => c.notNull().check(sql`category in ('hs_ceeb', 'college_ceeb', 'address')`))
    .addColumn('id', sql`text collate "C"`, (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address_line_1', 'text')
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('zip', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('search_text', sql`text collate "C"`, (c) => c.notNull())
    .addColumn('search_vector', sql`tsvector`, (c) => c.notNull())
    .addPrimaryKeyConstraint('lookups_pkey', ['category', 'id'])
    .execute();
  await sql`create index lookups_prefix_idx on lookups (category, search_text, id)`.execute(db);
  // no pending list: lists are loaded in bulk and rarely, searches are many, and PGlite has no autovacuum to merge it
  await sql`create index lookups_words_idx on lookups using gin (search_vector) with (fastupdate = off)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('lookups').execute();
}
