import { sql, type Kysely } from 'kysely';

/**
 * Deadline reminders and what the funnel report reads:
 * - `reminders`: one row per applicant, rule and deadline ever selected (the unique key is
 *   what makes a reminder go once, whichever server selects it); its state, its clock (the
 *   time it was due and when it was queued) and when its unsubscribe link was used;
 * - `applicants.reminders_off_at`: the applicant stopped reminders (by a link, or the account menu);
 * - `pages_reached`: when an applicant first reached each page (the last page alone says
 *   only where they are now), filled from `last_page` for those who came before;
 * - `outbox.headers`: the headers a mail kept without SMTP carries (a reminder's unsubscribe).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reminders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('deadline_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued').check(sql`status in ('queued', 'sending', 'sent', 'skipped', 'failed')`))
    .addColumn('reason', 'text')
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('queued_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sent_at', 'timestamptz')
    .addColumn('unsubscribed_at', 'timestamptz')
    .addUniqueConstraint('reminders_once', ['applicant_id', 'rule_id', 'deadline_id'])
    .execute();
  await sql`create index reminders_applicant_due_idx on reminders (applicant_id, due_at)`.execute(db);
  await sql`create index reminders_rule_idx on reminders (rule_id, deadline_id, status)`.execute(db);

  await db.schema.alterTable('applicants').addColumn('reminders_off_at', 'timestamptz').execute();

  await db.schema
    .createTable('pages_reached')
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('reached_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('pages_reached_pkey', ['applicant_id', 'page'])
    .execute();
  await sql`insert into pages_reached (applicant_id, page, reached_at)
    select id, last_page, created_at from applicants where last_page is not null on conflict do nothing`.execute(db);

  await db.schema.alterTable('outbox').addColumn('headers', 'jsonb').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').dropColumn('headers').execute();
  await db.schema.dropTable('pages_reached').execute();
  await db.schema.alterTable('applicants').dropColumn('reminders_off_at').execute();
  await db.schema.dropTable('reminders').execute();
}
