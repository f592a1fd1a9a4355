import type { Kysely } from 'kysely';
import type { ProfileReply, ServiceViewReply } from '../../shared/generated/api-types.ts';
import { listLogins } from '../db/repositories/login-repository.ts';
import { answersAndClocksOf, answersOf, lastPageOf, webStatusEntriesOf } from '../db/repositories/profile-repository.ts';
import type { Database } from '../db/tables.ts';
import type { DocumentService } from '../documents/document-service.ts';
import type { FormExtrasService } from './form-extras-service.ts';

/** What the profile response (spec section 3) and the service view read of one applicant. */
export function createProfileService(deps: {
  db: Kysely<Database>; documents: DocumentService; extras: FormExtrasService; inactivityTimeoutMs: number;
  /** the key and name under which the applicant's browser keeps answers not yet saved (save-queue-key.ts) */
  saveQueueKey(applicantId: string): { key: string; tag: string };
}) {
  const { db, documents, extras } = deps;
  return {
    /** GET /api/profile */
    async profile(applicant: { id: string; email: string }): Promise<ProfileReply> {
      const [{ answer, clock }, webStatus, lastPage, logins, files] = await Promise.all([
        answersAndClocksOf(db, applicant.id), webStatusEntriesOf(db, applicant.id), lastPageOf(db, applicant.id), listLogins(db, applicant.id),
        documents.overview(applicant.id),
      ]);
      return {
        answer,
        answer_clock: clock,
        save_queue: deps.saveQueueKey(applicant.id),
        document_answer: files.converted,
        document_conversions: files.converting,
        web_status: webStatus.map((entry) => ({ web_status: entry.web_status, created_at: entry.created_at.toISOString() })),
        last_page: lastPage,
        username: applicant.email,
        successful_login: logins.map((login) => ({ login_at: login.login_at.toISOString() })),
        inactivity_timeout_ms: deps.inactivityTimeoutMs,
      };
    },

    /** GET /service/tmp-pdf: what the read-only view shows of one applicant. */
    async serviceView(applicantId: string): Promise<ServiceViewReply> {
      const [answer, addAnother, documentAnswer, tabs] = await Promise.all([
        answersOf(db, applicantId), extras.addAnother(applicantId), documents.list(applicantId), extras.tabs(applicantId),
      ]);
      return { answer, add_another: addAnother, document_answer: documentAnswer, tabs };
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
