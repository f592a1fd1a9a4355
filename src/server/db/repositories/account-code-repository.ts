import type { Kysely, Selectable } from 'kysely';
import type { AccountCodesTable, Database } from '../tables.ts';

export type CodePurpose = AccountCodesTable['purpose'];

export type AccountCode = Pick<Selectable<AccountCodesTable>, 'secret_hash' | 'expires_at'>;

/** One live code per account and purpose: a new one replaces the old. */
export async function replaceCode(
  db: Kysely<Database>, applicantId: string, purpose: CodePurpose, secretHash: string, expiresAt: Date,
): Promise<void> {
  await db.insertInto('account_codes')
    .values({ applicant_id: applicantId, purpose, secret_hash: secretHash, expires_at: expiresAt })
    .onConflict((conflict) => conflict.columns(['applicant_id', 'purpose']).doUpdateSet({
      secret_hash: secretHash, expires_at: expiresAt, created_at: new Date(),
    } as never))
    .execute();
}

export function findCode(db: Kysely<Database>, applicantId: string, purpose: CodePurpose): Promise<AccountCode | undefined> {
  return db.selectFrom('account_codes').select(['secret_hash', 'expires_at'])
    .where('applicant_id', '=', applicantId).where('purpose', '=', purpose).executeTakeFirst();
}

/** Single use: the code is deleted when used or voided. Returns whether this call removed it. */
export async function deleteCode(db: Kysely<Database>, applicantId: string, purpose: CodePurpose, secretHash?: string): Promise<boolean> {
  let query = db.deleteFrom('account_codes').where('applicant_id', '=', applicantId).where('purpose', '=', purpose);
  if (secretHash) query = query.where('secret_hash', '=', secretHash);
  const result = await query.executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Codes expired before `before` (kept a while after expiry, so a late try still hears "expired"). */
export async function deleteExpiredCodes(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('account_codes').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The code's mail went out: its window starts now (a code mailed late is not already spent).
 * Only that code: a newer one that replaced it keeps its own.
 */
export async function restartCodeWindow(db: Kysely<Database>, applicantId: string, purpose: CodePurpose, secretHash: string, ttlMs: number): Promise<void> {
  await db.updateTable('account_codes').set({ expires_at: new Date(Date.now() + ttlMs) })
    .where('applicant_id', '=', applicantId).where('purpose', '=', purpose).where('secret_hash', '=', secretHash).execute();
}
