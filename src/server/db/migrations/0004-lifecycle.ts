import { sql, type Kysely } from 'kysely';

/** The last validation snapshot per applicant (for staff reports), and prefill tokens. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('validation_snapshots')
    .addColumn('applicant_id', 'uuid', (c) => c.primaryKey().references('applicants.id').onDelete('cascade'))
    .addColumn('errors', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('prefill_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('answers', 'jsonb', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('prefill_tokens').execute();
  await db.schema.dropTable('validation_snapshots').execute();
}
