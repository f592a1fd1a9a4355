import type { Kysely } from 'kysely';
import type { Database } from '../tables.ts';

export async function recordLogin(db: Kysely<Database>, applicantId: string): Promise<void> {
  await db.insertInto('logins').values({ applicant_id: applicantId }).execute();
}

export function listLogins(db: Kysely<Database>, applicantId: string): Promise<{ login_at: Date }[]> {
  return db.selectFrom('logins').select('login_at').where('applicant_id', '=', applicantId)
    .orderBy('login_at').execute();
}
