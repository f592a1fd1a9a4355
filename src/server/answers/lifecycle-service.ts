import type { Kysely, Transaction } from 'kysely';
import apiMessages from '../../../schemas/text/api-messages.json';
import partner from '../../../schemas/partner.json';
import frame from '../../../schemas/text/frame.json';
import { DESC_SUFFIX } from '../../shared/answers/key-naming.ts';
import type { PostStatusBody, SaveAnswersBody, SaveAnswersReply, SaveLastPageBody, SaveValidationsBody } from '../../shared/generated/api-types.ts';
import { deriveWebStatus, WEB_STATUS_ORDER, type WebStatus } from '../../shared/lifecycle/web-status.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { validateApplication } from '../../shared/validation/page-validation.ts';
import { writeAnswers, writeAnswersUnlessSubmitted } from '../db/repositories/answer-repository.ts';
import { answersOf } from '../db/repositories/profile-repository.ts';
import { addStatus, lockApplicant, saveValidationSnapshot, setLastPage, statusEntries } from '../db/repositories/status-repository.ts';
import type { Database } from '../db/tables.ts';
import { HttpError } from '../lib/http-error.ts';
import { storedChanges } from './answer-changes.ts';

const submittedError = () => new HttpError(409, apiMessages.submitted, { code: 'SUBMITTED' });
const MAX_SNAPSHOT_BYTES = 64 * 1024;

/**
 * Runs a write of the application unless it is submitted, refused as an answer save is
 * (409 SUBMITTED). The applicant's row lock orders it against a submit in progress.
 */
export async function unlessSubmitted(db: Kysely<Database>, applicantId: string, write: (tx: Transaction<Database>) => Promise<void>): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await lockApplicant(tx, applicantId);
    if ((await statusEntries(tx, applicantId)).includes('submitted')) throw submittedError();
    await write(tx);
  });
}

/** Save, status, last page, validations and submit (spec sections 4 and 7, spec-decisions 1-8). */
/** What else happens once an application is submitted (the office's webhook, the applicant's mail); must not throw or wait. */
export interface LifecycleHooks {
  onSubmitted?(applicantId: string): void;
}

export function createLifecycleService(db: Kysely<Database>, hooks: LifecycleHooks = {}) {
  return {
    /** Writes what the save carries, nothing else; refused once the application is submitted. */
    async saveAnswers(applicantId: string, body: SaveAnswersBody): Promise<SaveAnswersReply> {
      const { values, versions, clocks, basis } = storedChanges(body);
      // the lock, the status check and the writes in one statement, without a transaction
      // around it: one round trip per save (npm run bench:load)
      const { open, stale, staleClocks } = await writeAnswersUnlessSubmitted(db, applicantId, values, versions, clocks, basis);
      if (!open) throw submittedError();
      // a label that stayed behind with its stale answer is the client's business only through its answer
      const answerKeys = (record: Record<string, unknown>) => Object.keys(record).filter((key) => !key.endsWith(DESC_SUFFIX));
      const staleAnswers = Object.fromEntries(answerKeys(stale).map((key) => [key, stale[key]!]));
      const staleClock = Object.fromEntries(answerKeys(staleClocks).map((key) => [key, staleClocks[key]!]));
      return { message: apiMessages.saved, saved: Object.keys(values).length - Object.keys(stale).length, stale: staleAnswers, stale_clock: staleClock };
    },

    /** Only the next status in order is added; a repeat changes nothing; `submitted` comes from submit. */
    async postStatus(applicantId: string, body: PostStatusBody): Promise<{ web_status: WebStatus }> {
      const wanted = body.web_status;
      const entries = await statusEntries(db, applicantId);
      const current = deriveWebStatus(entries.map((web_status) => ({ web_status })));
      if (!WEB_STATUS_ORDER.includes(wanted as never)) {
        throw new HttpError(400, fillTemplate(apiMessages.status_out_of_order, { from: String(current), to: String(wanted) }), { code: 'BAD_STATUS' });
      }
      const status = wanted as (typeof WEB_STATUS_ORDER)[number];
      if (entries.includes(status)) return { web_status: current };
      const next = WEB_STATUS_ORDER[entries.length];
      if (status !== next || status === 'submitted') {
        throw new HttpError(409, fillTemplate(apiMessages.status_out_of_order, { from: String(current), to: status }), { code: 'STATUS_ORDER' });
      }
      await addStatus(db, applicantId, status);
      return { web_status: status };
    },

    async saveLastPage(applicantId: string, body: SaveLastPageBody): Promise<{ last_page: string }> {
      const page = body.last_page;
      if (!frame.steps.some((step) => step.path === page)) {
        throw new HttpError(400, fillTemplate(apiMessages.bad_last_page, { page }), { code: 'BAD_LAST_PAGE' });
      }
      await setLastPage(db, applicantId, page);
      return { last_page: page };
    },

    /** The client's messages, kept for staff reports only (spec-decisions 6). */
    async saveValidations(applicantId: string, body: SaveValidationsBody): Promise<{ message: string }> {
      if (JSON.stringify(body).length > MAX_SNAPSHOT_BYTES) {
        throw new HttpError(400, fillTemplate(apiMessages.bad_answer, { key: 'validations' }), { code: 'BAD_VALIDATIONS' });
      }
      await unlessSubmitted(db, applicantId, (tx) => saveValidationSnapshot(tx, applicantId, body));
      return { message: apiMessages.saved };
    },

    /**
     * Validates every page with the shared module, then records validating and submitted
     * in one transaction; refused with the per-field messages when anything is missing.
     * A second submit is harmless.
     */
    async submit(applicantId: string): Promise<{ web_status: 'submitted' }> {
      let submittedNow = false;
      const reply = await db.transaction().execute(async (tx) => {
        await lockApplicant(tx, applicantId);
        const entries = await statusEntries(tx, applicantId);
        if (entries.includes('submitted')) return { web_status: 'submitted' as const };
        const answers = await answersOf(tx, applicantId);
        const byPage = validateApplication(answers);
        const pages = Object.fromEntries(Object.entries(byPage).map(([page, errors]) => [page, Object.keys(errors ?? {})]));
        if (Object.keys(pages).length) {
          const errors = Object.assign({}, ...Object.values(byPage));
          throw new HttpError(422, frame.missing_info.title, { code: 'INCOMPLETE', errors, pages });
        }
        for (const status of WEB_STATUS_ORDER) await addStatus(tx, applicantId, status);
        await writeAnswers(tx, applicantId, { entry_term: partner.intake, entry_term_desc: partner.intake_label }, { entry_term: 1, entry_term_desc: 1 });
        submittedNow = true;
        return { web_status: 'submitted' as const };
      });
      // after the commit, and without waiting: the event is queued, never in the submit's way
      if (submittedNow) hooks.onSubmitted?.(applicantId);
      return reply;
    },
  };
}

export type LifecycleService = ReturnType<typeof createLifecycleService>;
