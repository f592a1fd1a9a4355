import { sql, type Kysely } from 'kysely';

/**
 * The office's side. `service_links`: every staff link made by
 * `npm run service-link`, with who made it, for whom and until when; a revoked one is
 * refused by every server at its next use (each use reads its row). The index lets the
 * export page through submitted applications in submit order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_links')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('made_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_by', 'text')
    .execute();
  await sql`create index service_links_created_idx on service_links (created_at)`.execute(db);
  await sql`create index web_status_entries_status_time_idx on web_status_entries (web_status, created_at, applicant_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index web_status_entries_status_time_idx`.execute(db);
  await db.schema.dropTable('service_links').execute();
}
