import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables.ts';

export interface Applicant {
  id: string;
  email: string;
  password_hash: string;
  confirmed_at: Date | null;
}

const columns = ['id', 'email', 'password_hash', 'confirmed_at'] as const;

export function findApplicantByEmail(db: Kysely<Database>, email: string): Promise<Applicant | undefined> {
  return db.selectFrom('applicants').select(columns)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export function findApplicantById(db: Kysely<Database>, id: string): Promise<Applicant | undefined> {
  return db.selectFrom('applicants').select(columns).where('id', '=', id).executeTakeFirst();
}

/** Creates the account unless the address is taken; returns undefined when it was. */
export async function createApplicant(db: Kysely<Database>, email: string, passwordHash: string): Promise<Applicant | undefined> {
  return db.insertInto('applicants')
    .values({ email, password_hash: passwordHash })
    .onConflict((conflict) => conflict.expression(sql`lower(email)`).doNothing())
    .returning(columns)
    .executeTakeFirst();
}

export async function setPasswordHash(db: Kysely<Database>, id: string, passwordHash: string): Promise<void> {
  await db.updateTable('applicants').set({ password_hash: passwordHash }).where('id', '=', id).execute();
}

export async function markConfirmed(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('applicants').set({ confirmed_at: new Date() }).where('id', '=', id)
    .where('confirmed_at', 'is', null).execute();
}
