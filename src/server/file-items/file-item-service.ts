/**
 * The application file (schemas/file-items.json): each item's state for an applicant, who
 * changed it, and the file's completion. Every change goes through `mark`, in one
 * transaction with the applicant's row locked: the item's state, its webhook event, and,
 * when it completes the file, the completion time, the `application.file_complete` event
 * and the applicant's mail. Two servers marking the last two items at once complete the
 * file once; a server killed after the commit has left the mail and events queued.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import apiMessages from '../../../schemas/text/api-messages.json';
import fileItemsFile from '../../../schemas/file-items.json';
import partner from '../../../schemas/partner.json';
import { checklistOf, decisionDue, isComplete, itemRule, type ChecklistItem, type FileItemState } from '../../shared/file-items/checklist.ts';
import { calendarDay } from '../../shared/file-items/item-words.ts';
import { SOURCE_LANGUAGE, LANGUAGE_PARAM, type Language } from '../../shared/i18n/languages.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { clearFileItem, fileHolder, fileItemsOf, lockFileHolder, markFileComplete, writeFileItem, type FileHolder } from '../db/repositories/file-item-repository.ts';
import { answersOf } from '../db/repositories/profile-repository.ts';
import { latestCounselorRequests } from '../db/repositories/counselor-request-repository.ts';
import { insertWebhookEvent } from '../db/repositories/webhook-repository.ts';
import type { Database } from '../db/tables.ts';
import { fileIn } from '../i18n/language-texts.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { HttpError } from '../lib/http-error.ts';
import { queueMailIn } from '../mail/mail-queue.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { answersAsName, mailLanguage, oneLine, senderName } from '../mail/mail-texts.ts';
import { queueDelivery } from '../webhooks/webhook-delivery.ts';

export const FILE_ITEM_CHANGED = 'application.file_item_changed';
export const FILE_COMPLETE = 'application.file_complete';

export interface ItemChange {
  /** missing: the office takes back a state set by mistake */
  state: FileItemState;
  /** "applicant", "counselor", "office:<key name>", "command:<user>" */
  by: string;
  note?: string | null;
  /** the documents row of the file that came with it */
  documentKey?: string | null;
}

export interface ApplicationFileView {
  submitted: boolean;
  /** when the file became complete, while it still is */
  complete_at: string | null;
  /** the day a decision is due (YYYY-MM-DD, the partner's calendar), once complete */
  decision_due: string | null;
  /** the counselor's address the applicant gave (counselor_email_address) */
  counselor_email: string | null;
  items: (ChecklistItem & { request?: CounselorRequestView })[];
}

/** The latest request to a counselor for an item, as the applicant's file shows it. */
export interface CounselorRequestView {
  email: string;
  expires_at: string;
  /** withdrawn (by the applicant, the office, or a newer request) or expired: its link no longer works */
  withdrawn: boolean;
}

/** The mail that tells an applicant their file is complete, in their language. */
export function fileCompleteMail(to: string, language: Language, name: string, completeAt: Date, publicUrl: string): MailMessage {
  const { texts } = fileIn(language, 'file-items.json', fileItemsFile);
  const due = decisionDue(completeAt);
  const values = {
    name: oneLine(name, 100),
    date: calendarDay(due, language),
    partner: partner.name,
    short_name: partner.short_name,
    help_email: partner.help_email,
    login_url: `${publicUrl}/login${language === SOURCE_LANGUAGE ? '' : `?${LANGUAGE_PARAM}=${language}`}`,
  };
  return { to, subject: oneLine(fillTemplate(texts.complete_subject, values)), text: fillTemplate(texts.complete_text, values), senderName: senderName(language) };
}

export function createFileItems(options: {
  /** only woken: a command beside the servers queues its jobs for them */
  db: Kysely<Database>; jobs: Pick<JobQueue, 'poke'>; webhooksEnabled: boolean; publicUrl: () => string; log?: FastifyBaseLogger;
}) {
  const { db, jobs, webhooksEnabled, publicUrl } = options;

  async function event(tx: Transaction<Database>, holder: FileHolder, type: string, data: Record<string, unknown>, once: boolean): Promise<void> {
    if (!webhooksEnabled) return;
    const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data: { applicant_id: holder.id, email: holder.email, ...data } });
    const id = await insertWebhookEvent(tx, { id: `msg_${randomUUID().replaceAll('-', '')}`, type, applicantId: holder.id, body, once });
    if (id) await queueDelivery(tx, id);
  }

  /** Completes the file if every required item is in; the mail and event go with the commit. */
  async function completeIfDue(tx: Transaction<Database>, holder: FileHolder, items: ChecklistItem[]): Promise<Date | undefined> {
    if (holder.file_complete_at || !holder.submitted_at || !isComplete(items)) return undefined;
    const completeAt = await markFileComplete(tx, holder.id);
    if (!completeAt) return undefined;
    await event(tx, holder, FILE_COMPLETE, { file_complete_at: completeAt.toISOString(), decision_due: decisionDue(completeAt) }, true);
    const answers = await answersOf(tx, holder.id);
    const name = answersAsName(answers);
    await queueMailIn(tx, fileCompleteMail(holder.email, mailLanguage(holder.language), name || holder.email, completeAt, publicUrl()));
    return completeAt;
  }

  async function markIn(tx: Transaction<Database>, applicantId: string, itemId: string, change: ItemChange): Promise<{ changed: boolean; item: ChecklistItem; completedAt?: Date }> {
    if (!itemRule(itemId)) throw new HttpError(404, apiMessages.file_item_unknown, { code: 'UNKNOWN_ITEM' });
    const holder = await lockFileHolder(tx, applicantId);
    if (!holder) throw new HttpError(404, apiMessages.file_item_unknown, { code: 'NOT_FOUND' });
    const before = (await fileItemsOf(tx, applicantId)).find((row) => row.item_id === itemId);
    const current: FileItemState = before?.state ?? 'missing';
    const unchanged = current === change.state && (change.documentKey ?? null) === (before?.document_key ?? null);
    const lowers = change.state === 'requested' && (current === 'received' || current === 'waived');
    if (!unchanged && !lowers) {
      if (change.state === 'missing') await clearFileItem(tx, applicantId, itemId);
      else await writeFileItem(tx, applicantId, itemId, { state: change.state, changedBy: change.by, note: change.note ?? null, documentKey: change.documentKey ?? null });
    }
    const items = checklistOf(await answersOf(tx, applicantId), await fileItemsOf(tx, applicantId));
    const item = items.find((entry) => entry.id === itemId)!;
    if (unchanged || lowers) return { changed: false, item };
    await event(tx, holder, FILE_ITEM_CHANGED, { item: itemId, state: item.state, changed_at: item.changed_at ?? new Date().toISOString(), changed_by: change.by }, false);
    const completedAt = await completeIfDue(tx, holder, items);
    return { changed: true, item, ...(completedAt ? { completedAt } : {}) };
  }

  async function view(applicantId: string): Promise<ApplicationFileView> {
    const [holder, answers, stored, requests] = await Promise.all([
      fileHolder(db, applicantId), answersOf(db, applicantId), fileItemsOf(db, applicantId), latestCounselorRequests(db, applicantId),
    ]);
    const items = checklistOf(answers, stored).map((item) => {
      const request = requests.get(item.id);
      if (!request) return item;
      const ended = Boolean(request.withdrawn_at) || request.expires_at.getTime() <= Date.now();
      return { ...item, request: { email: request.email, expires_at: request.expires_at.toISOString(), withdrawn: ended } };
    });
    const complete = holder?.file_complete_at && isComplete(items) ? holder.file_complete_at : null;
    return {
      submitted: Boolean(holder?.submitted_at),
      complete_at: complete ? complete.toISOString() : null,
      decision_due: complete ? decisionDue(complete) : null,
      counselor_email: typeof answers.counselor_email_address === 'string' && answers.counselor_email_address ? answers.counselor_email_address : null,
      items,
    };
  }

  return {
    view,

    /**
     * Changes an item's state. A request never lowers an item already received or waived,
     * and the same state again changes nothing (no event); anything else is recorded with
     * its event, and completes the file when it was the last required item.
     */
    async mark(applicantId: string, itemId: string, change: ItemChange): Promise<{ changed: boolean; item: ChecklistItem; completedAt?: Date }> {
      if (!itemRule(itemId)) throw new HttpError(404, apiMessages.file_item_unknown, { code: 'UNKNOWN_ITEM' });
      const result = await db.transaction().execute((tx) => markIn(tx, applicantId, itemId, change));
      if (result.changed) jobs.poke();
      return result;
    },

    /**
     * `mark` inside a transaction of the caller's (a converted item document is recorded and
     * its item received in one commit: no reader sees one without the other); the caller pokes
     * the job queue after its commit when `changed`.
     */
    markIn,

    /** After a submit: a file whose items all came before the form is complete now. */
    async recheck(applicantId: string): Promise<void> {
      const completed = await db.transaction().execute(async (tx) => {
        const holder = await lockFileHolder(tx, applicantId);
        if (!holder) return undefined;
        return completeIfDue(tx, holder, checklistOf(await answersOf(tx, applicantId), await fileItemsOf(tx, applicantId)));
      });
      if (completed) jobs.poke();
    },
  };
}

export type FileItems = ReturnType<typeof createFileItems>;
