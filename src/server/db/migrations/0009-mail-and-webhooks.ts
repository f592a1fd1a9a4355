import { sql, type Kysely } from 'kysely';

/**
 * Every e-mail is a job, and submitted applications flow out as signed webhook
 * events. `mails` holds a message until it is handed over (then its text is cleared), and
 * its id is the ticket the applicant's screen asks about; `webhook_events` keeps each event's
 * exact body (a replay is byte-identical, so its signature checks) and `webhook_attempts`
 * every delivery attempt.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mails')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // null: a stand-in that sends nothing, so an answer about a missing account looks the same
    .addColumn('recipient', 'text')
    .addColumn('subject', 'text')
    .addColumn('body', 'text')
    .addColumn('after_sent', 'jsonb')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued', 'sent', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await sql`create index mails_created_idx on mails (created_at)`.execute(db);

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('applicant_id', 'uuid', (c) => c.references('applicants.id').onDelete('set null'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .execute();
  // one application.submitted per application, however often it is created (submit, backfill)
  await sql`create unique index webhook_events_once_idx on webhook_events (type, applicant_id)`.execute(db);
  await sql`create index webhook_events_created_idx on webhook_events (created_at)`.execute(db);

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id').onDelete('cascade'))
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .execute();
  await sql`create index webhook_attempts_event_idx on webhook_attempts (event_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_attempts', 'webhook_events', 'mails']) await db.schema.dropTable(table).execute();
}
