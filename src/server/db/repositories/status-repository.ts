import { sql, type Kysely, type Transaction } from 'kysely';
import type { WebStatus } from '../../../shared/lifecycle/web-status.ts';
import type { Database } from '../tables.ts';

type Db = Kysely<Database> | Transaction<Database>;

export async function statusEntries(db: Db, applicantId: string): Promise<string[]> {
  const rows = await db.selectFrom('web_status_entries').select('web_status').where('applicant_id', '=', applicantId).orderBy('created_at').execute();
  return rows.map((row) => row.web_status);
}

/** Adds a status entry once; a repeat changes nothing. */
export async function addStatus(db: Db, applicantId: string, status: Exclude<WebStatus, null>): Promise<void> {
  await db.insertInto('web_status_entries').values({ applicant_id: applicantId, web_status: status })
    .onConflict((conflict) => conflict.columns(['applicant_id', 'web_status']).doNothing()).execute();
  // the applicant's row says it too: a save reads it under its row lock (writeAnswersUnlessSubmitted)
  if (status === 'submitted') {
    await db.updateTable('applicants').set({ submitted_at: new Date() }).where('id', '=', applicantId).where('submitted_at', 'is', null).execute();
  }
}

/** The page the applicant is on now; the first time they reach a page is kept too (the funnel report). */
export async function setLastPage(db: Db, applicantId: string, page: string): Promise<void> {
  await db.updateTable('applicants').set({ last_page: page }).where('id', '=', applicantId).execute();
  await db.insertInto('pages_reached').values({ applicant_id: applicantId, page })
    .onConflict((conflict) => conflict.columns(['applicant_id', 'page']).doNothing()).execute();
}

/** Serialises a submission against answer saves of the same applicant. */
export async function lockApplicant(db: Transaction<Database>, applicantId: string): Promise<void> {
  await sql`select id from applicants where id = ${applicantId} for update`.execute(db);
}

export async function saveValidationSnapshot(db: Db, applicantId: string, errors: unknown): Promise<void> {
  const json = sql<unknown>`${JSON.stringify(errors)}::jsonb`;
  await db.insertInto('validation_snapshots').values({ applicant_id: applicantId, errors: json, updated_at: new Date() })
    .onConflict((conflict) => conflict.column('applicant_id').doUpdateSet({ errors: json, updated_at: new Date() }))
    .execute();
}

/** Every applicant who submitted. */
export async function submittedApplicantIds(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('web_status_entries').select('applicant_id').where('web_status', '=', 'submitted').distinct().execute();
  return rows.map((row) => row.applicant_id);
}
