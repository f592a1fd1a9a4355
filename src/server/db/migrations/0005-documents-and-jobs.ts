import { sql, type Kysely } from 'kysely';

/** Uploaded documents and their conversion, durable jobs, and the application PDF. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('documents')
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('answer_key', 'text', (c) => c.notNull())
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('UNPROCESSED', 'IN_PROGRESS', 'COMPLETED', 'FAILED')`))
    .addColumn('message', 'text')
    .addColumn('pdf_key', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('documents_pkey', ['applicant_id', 'answer_key'])
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('lane', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued', 'running', 'done', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('run_after', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index jobs_ready_idx on jobs (lane, run_after) where status in ('queued', 'running')`.execute(db);

  await db.schema
    .createTable('application_pdfs')
    .addColumn('applicant_id', 'uuid', (c) => c.primaryKey().references('applicants.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('UNPROCESSED', 'IN_PROGRESS', 'COMPLETED', 'FAILED')`))
    .addColumn('pdf_key', 'text')
    .addColumn('message', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['application_pdfs', 'jobs', 'documents']) await db.schema.dropTable(table).execute();
}
