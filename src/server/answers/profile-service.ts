import type { Kysely } from 'kysely';
import { listLogins } from '../db/repositories/login-repository.ts';
import { answersOf, lastPageOf, webStatusEntriesOf } from '../db/repositories/profile-repository.ts';
import type { Database } from '../db/tables.ts';

/** What the profile response (spec section 3) and the service view read of one applicant. */
export function createProfileService(db: Kysely<Database>) {
  return {
    answers: (applicantId: string) => answersOf(db, applicantId),
    webStatusEntries: (applicantId: string) => webStatusEntriesOf(db, applicantId),
    lastPage: (applicantId: string) => lastPageOf(db, applicantId),
    logins: (applicantId: string) => listLogins(db, applicantId),
  };
}
