import { sql, type Kysely } from 'kysely';

/**
 * Upload slots handed out (so the sweep can remove uploads never registered, and a quota can
 * count them), one job per schedule slot (a periodic job queued by several servers runs
 * once), and prefill tokens marked used.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upload_slots')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('answer_key', 'text', (c) => c.notNull())
    // counted against the quota until the upload is registered or swept: S3 does not tell us what arrived
    .addColumn('reserved_bytes', 'integer', (c) => c.notNull())
    .addColumn('stored_bytes', 'integer')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('upload_slots_applicant_idx').on('upload_slots').column('applicant_id').execute();
  await db.schema.createIndex('upload_slots_expires_idx').on('upload_slots').column('expires_at').execute();

  // NULLs are distinct: ordinary jobs have none, a scheduled one has "<kind>:<slot number>"
  await sql`alter table jobs add column singleton_key text`.execute(db);
  await sql`create unique index jobs_singleton_key on jobs (singleton_key)`.execute(db);
  await sql`create index jobs_finished_idx on jobs (updated_at) where status in ('done', 'failed')`.execute(db);

  await sql`alter table prefill_tokens add column used_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table prefill_tokens drop column used_at`.execute(db);
  await sql`drop index jobs_finished_idx`.execute(db);
  await sql`drop index jobs_singleton_key`.execute(db);
  await sql`alter table jobs drop column singleton_key`.execute(db);
  await db.schema.dropTable('upload_slots').execute();
}
