/**
 * Requests to a school counselor for an item of the application file: the applicant names the
 * counselor's address and the mail's language; the counselor gets a signed link (valid for
 * counselor_link_days) to a page that shows only the applicant's name and the item, and takes
 * one upload through the same pipeline as the applicant's documents (item-documents.ts).
 *
 * The office's name sends these mails to addresses an applicant types, so they are limited:
 * counselor_requests_per_day per applicant (counted under the applicant's lock: a thousand at
 * once send at most that many), and the per-inbox mail limits every mail to a typed address
 * meets (attempt-limits.ts), so many applicants cannot bury one inbox either.
 */
import type { Kysely } from 'kysely';
import fileItemsFile from '../../../schemas/file-items.json';
import partner from '../../../schemas/partner.json';
import apiMessages from '../../../schemas/text/api-messages.json';
import { itemRule } from '../../shared/file-items/checklist.ts';
import { LANGUAGE_PARAM, SOURCE_LANGUAGE, type Language } from '../../shared/i18n/languages.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { consumeAttempt } from '../accounts/attempt-limits.ts';
import { normalisedMailbox } from '../accounts/mailbox.ts';
import {
  countCounselorRequestsSince, findCounselorRequest, insertCounselorRequest, latestCounselorRequests, withdrawCounselorRequests,
  type CounselorRequestRow,
} from '../db/repositories/counselor-request-repository.ts';
import { fileItemsOf, lockFileHolder } from '../db/repositories/file-item-repository.ts';
import { answersOf } from '../db/repositories/profile-repository.ts';
import type { Database } from '../db/tables.ts';
import { fileIn } from '../i18n/language-texts.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { HttpError } from '../lib/http-error.ts';
import { queueMailIn } from '../mail/mail-queue.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { answersAsName, oneLine, senderName } from '../mail/mail-texts.ts';
import { counselorLinkToken, requestOfToken } from './counselor-link-token.ts';
import type { FileItems } from './file-item-service.ts';

const DAY_MS = 24 * 60 * 60_000;

/** What a valid link lets its holder act on: one request, one applicant, one item. */
export interface CounselorLink {
  id: string;
  applicantId: string;
  itemId: string;
  language: Language;
  /** the counselor's address: their uploads wait in its turn */
  email: string;
}


/**
 * An address a request may go to: one address (no list, no display name, no header), printable,
 * with a dot in its domain. The mailer sends to exactly this string.
 */
const ADDRESS = /^[^\s@<>()[\]",;:\\]{1,64}@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

export function counselorAddress(raw: string): string | undefined {
  const address = raw.trim();
  return address.length <= 254 && ADDRESS.test(address) ? address : undefined;
}

const isLanguage = (value: string): value is Language => value === 'en' || value === 'es';
const languageOf = (value: string): Language => (isLanguage(value) ? value : SOURCE_LANGUAGE);

/** The page a link opens: the token in the fragment, which browsers send to no server and no Referer carries. */
export function counselorLinkUrl(publicUrl: string, token: string, language: Language): string {
  return `${publicUrl}/counselor${language === SOURCE_LANGUAGE ? '' : `?${LANGUAGE_PARAM}=${language}`}#${token}`;
}

/** The counselor's mail in the language the applicant chose for them, from the item's counselor_request texts. */
export function counselorRequestMail(input: {
  to: string; language: Language; itemId: string; applicant: string; school: string; link: string; expiresAt: Date;
}): MailMessage {
  const file = fileIn(input.language, 'file-items.json', fileItemsFile);
  const item = file.items.find((entry) => entry.id === input.itemId)!;
  const template = (item as { counselor_request?: { subject: string; text: string } }).counselor_request!;
  const values = {
    applicant: oneLine(input.applicant, 100) || '-',
    school: oneLine(input.school, 100) || '-',
    item: item.title,
    partner: partner.name,
    short_name: partner.short_name,
    link: input.link,
    expires: new Intl.DateTimeFormat(input.language, { year: 'numeric', month: 'long', day: 'numeric', timeZone: partner.time_zone }).format(input.expiresAt),
    office: senderName(input.language),
    help_email: partner.help_email,
  };
  return { to: input.to, senderName: senderName(input.language), subject: oneLine(fillTemplate(template.subject, values), 250), text: fillTemplate(template.text, values) };
}


export function createCounselorRequests(deps: {
  db: Kysely<Database>; jobs: JobQueue; fileItems: FileItems; secret: string; publicUrl: () => string;
}) {
  const { db, jobs, fileItems, secret } = deps;

  /** The item's rule, when a counselor may send it. */
  function counselorItem(itemId: string) {
    const rule = itemRule(itemId);
    if (!rule?.provided_by.includes('counselor')) throw new HttpError(404, apiMessages.file_item_unknown, { code: 'UNKNOWN_ITEM' });
    return rule;
  }

  async function withdraw(applicantId: string, itemId: string, by: string): Promise<void> {
    counselorItem(itemId);
    if (!(await withdrawCounselorRequests(db, applicantId, itemId, by))) {
      throw new HttpError(404, apiMessages.no_counselor_request, { code: 'NO_REQUEST' });
    }
    // the item waits for no one now, unless it arrived meanwhile
    const current = (await fileItemsOf(db, applicantId)).find((row) => row.item_id === itemId);
    if (current?.state === 'requested') await fileItems.mark(applicantId, itemId, { state: 'missing', by });
  }

  return {
    /**
     * Sends the counselor a link for one item, and withdraws the item's earlier requests (their
     * links stop working). After submission only, for an item a counselor provides that has not
     * arrived; within the day's and the inbox's limits.
     */
    async ask(applicantId: string, itemId: string, input: { email: string; language: string }): Promise<void> {
      counselorItem(itemId);
      const email = counselorAddress(input.email);
      if (!email) throw new HttpError(400, apiMessages.bad_counselor_email, { code: 'BAD_EMAIL' });
      const language = languageOf(input.language);
      const perDay = fileItemsFile.counselor_requests_per_day;
      const dayFull = async (tx: Kysely<Database>) => (await countCounselorRequestsSince(tx, applicantId, new Date(Date.now() - DAY_MS))) >= perDay;
      const refuseDay = () => new HttpError(429, apiMessages.counselor_requests_per_day, { code: 'COUNSELOR_REQUESTS', retryAfterSeconds: DAY_MS / 1000 });
      // the day's limit first, so an applicant past it spends none of the inbox's allowance, which other applicants share
      if (await dayFull(db)) throw refuseDay();
      const view = await fileItems.view(applicantId);
      if (!view.submitted) throw new HttpError(409, apiMessages.file_not_submitted, { code: 'NOT_SUBMITTED' });
      const state = view.items.find((item) => item.id === itemId)?.state;
      if (state === 'received' || state === 'waived') throw new HttpError(409, apiMessages.file_item_closed, { code: 'ITEM_CLOSED' });
      // the inbox's limits every mail to a typed address meets (sign-up, resend, forgot), however the
      // address is spelled; not the client network's: a school's students share one
      const inbox = normalisedMailbox(email);
      await consumeAttempt(db, 'mailInbox', inbox).then(() => consumeAttempt(db, 'mailInboxDay', inbox)).catch((error: unknown) => {
        if (error instanceof HttpError && error.statusCode === 429) {
          throw new HttpError(429, apiMessages.counselor_inbox_busy, { code: 'RATE_LIMITED', ...(error.details.retryAfterSeconds ? { retryAfterSeconds: error.details.retryAfterSeconds } : {}) });
        }
        throw error;
      });
      const answers = await answersOf(db, applicantId);
      const expiresAt = new Date(Date.now() + fileItemsFile.counselor_link_days * DAY_MS);
      await db.transaction().execute(async (tx) => {
        // one applicant's requests one at a time: the count below sees every earlier one
        if (!(await lockFileHolder(tx, applicantId))) throw new HttpError(404, apiMessages.file_item_unknown, { code: 'UNKNOWN_ITEM' });
        if (await dayFull(tx)) throw refuseDay();
        const request = await insertCounselorRequest(tx, { applicantId, itemId, email, language, expiresAt });
        await withdrawCounselorRequests(tx, applicantId, itemId, 'new-request', request.id);
        await queueMailIn(tx, counselorRequestMail({
          to: email, language, itemId, expiresAt,
          applicant: answersAsName(answers), school: answersAsName(answers, ['hs_name']),
          link: counselorLinkUrl(deps.publicUrl(), counselorLinkToken(secret, request.id), language),
        }));
      });
      jobs.poke();
      await fileItems.mark(applicantId, itemId, { state: 'requested', by: 'applicant' });
    },

    /** The applicant withdraws the item's open request. */
    withdrawByApplicant: (applicantId: string, itemId: string) => withdraw(applicantId, itemId, 'applicant'),

    /** The office withdraws it (`by`: "office:<key name>"); for the office's endpoint. */
    withdrawByOffice: (applicantId: string, itemId: string, by: string) => withdraw(applicantId, itemId, by),

    /** The newest request of each item, for the applicant's file. */
    latest: (applicantId: string): Promise<Map<string, CounselorRequestRow>> => latestCounselorRequests(db, applicantId),

    /**
     * What a link's token gives: its request, if the signature holds, the request exists, is not
     * withdrawn (410) and not expired (410); anything else is the same 404.
     */
    async linkOf(token: unknown): Promise<CounselorLink> {
      const invalid = () => new HttpError(404, apiMessages.link_invalid, { code: 'LINK_INVALID' });
      const id = requestOfToken(secret, token);
      if (!id) throw invalid();
      const request = await findCounselorRequest(db, id);
      if (!request || !itemRule(request.item_id)) throw invalid();
      if (request.withdrawn_at) throw new HttpError(410, apiMessages.link_withdrawn, { code: 'LINK_WITHDRAWN' });
      if (request.expires_at.getTime() <= Date.now()) throw new HttpError(410, apiMessages.link_expired, { code: 'LINK_EXPIRED' });
      return { id: request.id, applicantId: request.applicant_id, itemId: request.item_id, language: languageOf(request.language), email: request.email };
    },

    /** The applicant's name as the counselor's page shows it. */
    async applicantName(applicantId: string): Promise<string> {
      return oneLine(answersAsName(await answersOf(db, applicantId)), 100);
    },
  };
}

export type CounselorRequests = ReturnType<typeof createCounselorRequests>;
