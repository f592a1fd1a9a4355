import { sql, type Kysely, type Selectable } from 'kysely';
import { SOURCE_LANGUAGE, type Language } from '../../../shared/i18n/languages.ts';
import type { ApplicantsTable, Database } from '../tables.ts';

const columns = ['id', 'email', 'password_hash', 'confirmed_at', 'language'] as const;

export type Applicant = Pick<Selectable<ApplicantsTable>, (typeof columns)[number]>;

export function findApplicantByEmail(db: Kysely<Database>, email: string): Promise<Applicant | undefined> {
  return db.selectFrom('applicants').select(columns)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export function findApplicantById(db: Kysely<Database>, id: string): Promise<Applicant | undefined> {
  return db.selectFrom('applicants').select(columns).where('id', '=', id).executeTakeFirst();
}

/** Creates the account unless the address is taken; returns undefined when it was. */
export async function createApplicant(db: Kysely<Database>, email: string, passwordHash: string, language: Language = SOURCE_LANGUAGE): Promise<Applicant | undefined> {
  return db.insertInto('applicants')
    .values({ email, password_hash: passwordHash, language })
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

/** The language the applicant chose: their e-mails and PDF copy follow it. */
export async function setApplicantLanguage(db: Kysely<Database>, id: string, language: Language): Promise<void> {
  await db.updateTable('applicants').set({ language }).where('id', '=', id).where('language', '<>', language).execute();
}
