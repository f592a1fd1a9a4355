import type { Kysely } from 'kysely';
import type { Database } from '../tables.ts';

/** Remembers one more browser that signed the account up. */
export async function addSignupBrowser(db: Kysely<Database>, applicantId: string, proofHash: string): Promise<void> {
  await db.insertInto('signup_browsers').values({ applicant_id: applicantId, proof_hash: proofHash })
    .onConflict((conflict) => conflict.doNothing()).execute();
}

export async function isSignupBrowser(db: Kysely<Database>, applicantId: string, proofHash: string): Promise<boolean> {
  const row = await db.selectFrom('signup_browsers').select('proof_hash')
    .where('applicant_id', '=', applicantId).where('proof_hash', '=', proofHash).executeTakeFirst();
  return row !== undefined;
}

/** Once confirmed (or contested) the account needs none of them. */
export async function forgetSignupBrowsers(db: Kysely<Database>, applicantId: string): Promise<void> {
  await db.deleteFrom('signup_browsers').where('applicant_id', '=', applicantId).execute();
}
