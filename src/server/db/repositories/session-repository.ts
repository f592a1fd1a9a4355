import type { Kysely, Selectable } from 'kysely';
import { preparedStatement } from '../prepared-statement.ts';
import type { ApplicantsTable, Database, SessionsTable } from '../tables.ts';

/** A session with its applicant's e-mail address (sessions joined to applicants). */
export type SessionRow = Pick<Selectable<SessionsTable>, 'applicant_id' | 'last_seen_at' | 'expires_at'> & Pick<Selectable<ApplicantsTable>, 'email'>;

export async function insertSession(
  db: Kysely<Database>, idHash: string, applicantId: string, expiresAt: Date,
): Promise<void> {
  await db.insertInto('sessions')
    .values({ id_hash: idHash, applicant_id: applicantId, last_seen_at: new Date(), expires_at: expiresAt })
    .execute();
}

/** On every request with a session (src/server/plugins/sessions.ts). */
const sessionLookup = preparedStatement((db, idHash: string) => db.selectFrom('sessions')
  .innerJoin('applicants', 'applicants.id', 'sessions.applicant_id')
  .select(['sessions.applicant_id', 'applicants.email', 'sessions.last_seen_at', 'sessions.expires_at'])
  .where('sessions.id_hash', '=', idHash));

export async function findSession(db: Kysely<Database>, idHash: string): Promise<SessionRow | undefined> {
  return (await sessionLookup(db, idHash)).rows[0];
}

export async function touchSession(db: Kysely<Database>, idHash: string, at: Date): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
}

export async function deleteSession(db: Kysely<Database>, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

export async function deleteSessionsOf(db: Kysely<Database>, applicantId: string): Promise<void> {
  await db.deleteFrom('sessions').where('applicant_id', '=', applicantId).execute();
}

/** Sessions past their absolute limit or idle since before `idleBefore`. */
export async function deleteExpiredSessions(db: Kysely<Database>, idleBefore: Date, now = new Date()): Promise<number> {
  const result = await db.deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', now), eb('last_seen_at', '<', idleBefore)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
