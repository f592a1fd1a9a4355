import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { CounselorRequestsTable, Database } from '../tables.ts';

type Db = Kysely<Database> | Transaction<Database>;

export type CounselorRequestRow = Selectable<CounselorRequestsTable>;

export function findCounselorRequest(db: Db, id: string): Promise<CounselorRequestRow | undefined> {
  return db.selectFrom('counselor_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The newest request for each item of an applicant (withdrawn or not): what the applicant's file shows. */
export async function latestCounselorRequests(db: Db, applicantId: string): Promise<Map<string, CounselorRequestRow>> {
  const rows = await db.selectFrom('counselor_requests').selectAll().where('applicant_id', '=', applicantId)
    .orderBy('created_at', 'desc').execute();
  const latest = new Map<string, CounselorRequestRow>();
  for (const row of rows) if (!latest.has(row.item_id)) latest.set(row.item_id, row);
  return latest;
}

/** Requests this applicant made since `since` (the per-day limit counts them, withdrawn ones too). */
export async function countCounselorRequestsSince(db: Db, applicantId: string, since: Date): Promise<number> {
  const row = await db.selectFrom('counselor_requests').select(sql<string>`count(*)`.as('count'))
    .where('applicant_id', '=', applicantId).where('created_at', '>', since).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertCounselorRequest(db: Db, request: { applicantId: string; itemId: string; email: string; language: string; expiresAt: Date }): Promise<CounselorRequestRow> {
  return db.insertInto('counselor_requests').values({
    applicant_id: request.applicantId, item_id: request.itemId, email: request.email, language: request.language, expires_at: request.expiresAt,
  }).returningAll().executeTakeFirstOrThrow();
}

/** Withdraws the item's open requests (all but `except`); returns how many were open. */
export async function withdrawCounselorRequests(db: Db, applicantId: string, itemId: string, by: string, except?: string): Promise<number> {
  let query = db.updateTable('counselor_requests').set({ withdrawn_at: new Date(), withdrawn_by: by })
    .where('applicant_id', '=', applicantId).where('item_id', '=', itemId).where('withdrawn_at', 'is', null);
  if (except) query = query.where('id', '!=', except);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The counselor's upload through this request was registered. */
export async function markCounselorRequestUsed(db: Db, id: string): Promise<void> {
  await db.updateTable('counselor_requests').set({ used_at: new Date() }).where('id', '=', id).where('used_at', 'is', null).execute();
}
