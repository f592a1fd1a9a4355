import { sql, type Kysely } from 'kysely';

/**
 * Conversions shared fairly by applicant. A job may name its `owner` (whose work it is: the
 * queue serves owners in turn, least recently served first, and runs few of one owner's
 * jobs at once) and its `slot_key` (a job with at most one instance queued or running: the
 * document of one question; a newer upload replaces the payload instead of queueing again,
 * and `revision` tells a running attempt that its payload was replaced meanwhile).
 * `job_owners` holds each owner's last turn, and its row is what claims of one owner's
 * jobs lock, so that several servers never start more of them than allowed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table jobs add column owner text`.execute(db);
  await sql`alter table jobs add column slot_key text`.execute(db);
  await sql`alter table jobs add column revision integer not null default 0`.execute(db);
  await sql`create unique index jobs_active_slot_idx on jobs (slot_key) where status in ('queued', 'running')`.execute(db);
  await sql`create index jobs_owner_active_idx on jobs (owner, lane) where status in ('queued', 'running')`.execute(db);
  // conversions queued before: served by their applicant's turn too
  await sql`update jobs set owner = payload->>'applicantId'
    where kind in ('convert_document', 'convert_office_document') and status in ('queued', 'running')`.execute(db);
  await db.schema
    .createTable('job_owners')
    .addColumn('owner', 'text', (c) => c.primaryKey())
    .addColumn('last_turn', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_owners').execute();
  await sql`drop index jobs_owner_active_idx`.execute(db);
  await sql`drop index jobs_active_slot_idx`.execute(db);
  for (const column of ['revision', 'slot_key', 'owner']) await sql`alter table jobs drop column ${sql.raw(column)}`.execute(db);
}
