import { sql, type Kysely } from 'kysely';

/**
 * The moment of submission on the applicant's own row: a save locks that row and
 * reads it in the same statement, and a row lock reads the newest version of the row once it
 * is granted, so one statement without BEGIN and COMMIT can refuse a save that waited on a
 * submit. web_status_entries stays the history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table applicants add column submitted_at timestamptz`.execute(db);
  await sql`update applicants set submitted_at = entries.created_at
    from (select applicant_id, min(created_at) as created_at from web_status_entries where web_status = 'submitted' group by applicant_id) as entries
    where entries.applicant_id = applicants.id`.execute(db);
}
