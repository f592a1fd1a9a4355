import { sql, type Kysely } from 'kysely';

/**
 * The language each applicant chose (or signed up in): their e-mails and PDF copy are
 * written in it, and it follows them to another browser. The office's export shows it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('applicants')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en').check(sql`language in ('en', 'es')`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('applicants').dropColumn('language').execute();
}
