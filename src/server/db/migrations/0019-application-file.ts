import { sql, type Kysely } from 'kysely';

/**
 * The application file beyond the form (schemas/file-items.json):
 * - `file_items`: an item's state for an applicant (no row: missing), when and by whom it changed,
 *   and the document that came with it (a counselor's upload, the applicant's, the office's);
 * - `counselor_requests`: each request an applicant sent a counselor, its address, expiry and
 *   withdrawal (the link's token is signed, not stored: it names the request's id);
 * - `office_keys`: the office integration's credentials, as SHA-256 hashes, with when each was revoked;
 * - `applicants.file_complete_at`: when the last required item arrived (set once, in the
 *   transaction that records it, so one server alone sends the mail and the event);
 * - `webhook_events.once_key`: the events that go once per applicant (submitted, file complete)
 *   keep their unique key; an item's changes are many.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_items')
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('requested', 'received', 'waived')`))
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('document_key', 'text')
    .addPrimaryKeyConstraint('file_items_pkey', ['applicant_id', 'item_id'])
    .execute();

  await db.schema
    .createTable('counselor_requests')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('withdrawn_at', 'timestamptz')
    .addColumn('withdrawn_by', 'text')
    .addColumn('used_at', 'timestamptz')
    .execute();
  await sql`create index counselor_requests_applicant_idx on counselor_requests (applicant_id, item_id, created_at)`.execute(db);

  await db.schema
    .createTable('office_keys')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('made_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_by', 'text')
    .execute();

  await db.schema.alterTable('applicants').addColumn('file_complete_at', 'timestamptz').execute();

  await db.schema.alterTable('webhook_events').addColumn('once_key', 'text').execute();
  await sql`update webhook_events set once_key = type || ':' || applicant_id where applicant_id is not null`.execute(db);
  await sql`drop index webhook_events_once_idx`.execute(db);
  await sql`create unique index webhook_events_once_idx on webhook_events (once_key)`.execute(db);
  await sql`create index webhook_events_applicant_idx on webhook_events (applicant_id, type)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index webhook_events_applicant_idx`.execute(db);
  await sql`drop index webhook_events_once_idx`.execute(db);
  await sql`delete from webhook_events where once_key is null`.execute(db);
  await sql`create unique index webhook_events_once_idx on webhook_events (type, applicant_id)`.execute(db);
  await db.schema.alterTable('webhook_events').dropColumn('once_key').execute();
  await db.schema.alterTable('applicants').dropColumn('file_complete_at').execute();
  await db.schema.dropTable('office_keys').execute();
  await db.schema.dropTable('counselor_requests').execute();
  await db.schema.dropTable('file_items').execute();
}
