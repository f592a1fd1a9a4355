import type { PresignUploadBody, RegisterDocumentBody } from '../../shared/generated/api-types.ts';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import documentsText from '../../../schemas/documents.json';
import { fileProblem } from '../../shared/documents/file-rules.ts';
import { form } from '../../shared/form/form-model-data.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { writeAnswers } from '../db/repositories/answer-repository.ts';
import { allDocumentsOf, deleteDocument, documentsOf, findDocument, replaceDocument, type DocumentRow } from '../db/repositories/document-repository.ts';
import { isItemAnswerKey, ITEM_ANSWER_PREFIX, itemAnswerKey } from '../../shared/file-items/item-documents.ts';
import { lockApplicant, statusEntries } from '../db/repositories/status-repository.ts';
import {
  spendUploadSlot, findUploadSlot, insertUploadSlot, recordUploadStored, uploadUsage,
} from '../db/repositories/upload-slot-repository.ts';
import type { Database } from '../db/tables.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { HttpError } from '../lib/http-error.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { declaredKind } from './sniff.ts';
import { normalisedMailbox } from '../accounts/mailbox.ts';

const PRESIGN_SECONDS = 300;
/** presigned POSTs handed out and neither expired nor registered, per applicant */
export const MAX_OPEN_UPLOADS = 10;
const messages = documentsText.messages;

export type DocumentStatus = 'UNPROCESSED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'NOT_ANSWERED';

/** The one conversion job a question's document may have queued or running. */
const conversionSlot = (applicantId: string, answerKey: string) => `document:${applicantId}:${answerKey}`;

/**
 * The folder of an answer key in storage (object keys take no colon): a question's own key, or
 * `file-item/<item>` for an application file item's document (no question's key has a slash).
 */
export const storageSegment = (answerKey: string) => (isItemAnswerKey(answerKey) ? `file-item/${answerKey.slice(ITEM_ANSWER_PREFIX.length)}` : answerKey);

/** Every upload of an applicant lives under their own prefix, and under the question's (or item's). */
export const uploadPrefix = (applicantId: string, answerKey: string) => `uploads/${applicantId}/${storageSegment(answerKey)}/`;
/**
 * Where a registered upload is kept: a key no presigned POST names, so a second POST to the
 * upload's key (S3 takes one until the policy expires) cannot change a file once it is checked.
 */
export const documentKeyOf = (uploadKey: string) => uploadKey.replace(/^uploads\//, 'documents/');

/** Documents (spec section 4 "Document upload and conversion", section 7 calls). */
export function createDocumentService(deps: {
  db: Kysely<Database>; storage: ObjectStorage; jobs: JobQueue; log: FastifyBaseLogger; quotaBytes: number;
  /** why Word files are not converted here (LibreOfficeConverter.off), or undefined */
  wordConversionOff?: () => string | undefined;
}) {
  const { db, storage, jobs, quotaBytes } = deps;

  const overQuota = () => new HttpError(413, fillTemplate(messages.quota_exceeded, { megabytes: Math.floor(quotaBytes / (1024 * 1024)) }), { code: 'UPLOAD_QUOTA' });

  /** A document's stored bytes: its upload and, once converted, its PDF (sized in storage: the row does not say). */
  async function storedBytes(row: Pick<DocumentRow, 'file_size' | 'pdf_key'>): Promise<number> {
    return row.file_size + (row.pdf_key ? (await storage.size(row.pdf_key).catch(() => undefined)) ?? 0 : 0);
  }

  async function convertedBytes(applicantId: string): Promise<number> {
    const sizes = await Promise.all((await allDocumentsOf(db, applicantId)).map(async (row) => (await storedBytes(row)) - row.file_size));
    return sizes.reduce((sum, size) => sum + size, 0);
  }

  function documentKey(answerKey: string): void {
    if (form.fields[answerKey]?.type !== 'document') {
      throw new HttpError(400, fillTemplate(messages.not_document, { key: answerKey }), { code: 'NOT_DOCUMENT' });
    }
  }

  async function notSubmitted(applicantId: string): Promise<void> {
    if ((await statusEntries(db, applicantId)).includes('submitted')) throw new HttpError(409, messages.submitted, { code: 'SUBMITTED' });
  }

  async function removeFiles(row: { file_key: string; pdf_key: string | null } | undefined): Promise<void> {
    if (!row) return;
    await storage.delete(row.file_key).catch(() => {});
    if (row.pdf_key) await storage.delete(row.pdf_key).catch(() => {});
  }

  /** From one read: the converted documents, and those still converting (the profile's document_conversions). */
  async function overview(applicantId: string): Promise<{ converted: FilesByKey; converting: FilesByKey }> {
    const rows = await documentsOf(db, applicantId);
    const files = (statuses: DocumentStatus[]) => Object.fromEntries(rows.filter((row) => statuses.includes(row.status))
      .map((row) => [row.answer_key, { file_name: row.file_name, file_size: row.file_size }]));
    return { converted: files(['COMPLETED']), converting: files(['UNPROCESSED', 'IN_PROGRESS']) };
  }

  async function presignFor(applicantId: string, answerKey: string) {
    const key = `${uploadPrefix(applicantId, answerKey)}${randomUUID()}`;
    const converted = await convertedBytes(applicantId);
    // the slot holds the most it may receive until it is registered or swept: S3 does not tell us what arrived
    await db.transaction().execute(async (tx) => {
      await lockApplicant(tx, applicantId); // two presigns at once cannot both take the last room
      const usage = await uploadUsage(tx, applicantId);
      if (usage.openSlots >= MAX_OPEN_UPLOADS) {
        throw new HttpError(429, messages.too_many_uploads, { code: 'TOO_MANY_UPLOADS', retryAfterSeconds: PRESIGN_SECONDS });
      }
      if (usage.documentBytes + converted + usage.slotBytes + documentsText.max_bytes > quotaBytes) throw overQuota();
      await insertUploadSlot(tx, {
        key, applicantId, answerKey, reservedBytes: documentsText.max_bytes, expiresAt: new Date(Date.now() + PRESIGN_SECONDS * 1000),
      });
    });
    return storage.presignPost(key, { maxBytes: documentsText.max_bytes, expiresInSeconds: PRESIGN_SECONDS });
  }

  /**
   * Checks an upload that arrived and queues its conversion (register and the item documents'
   * register): the same key rules, type and size checks, quota and fair turns for both.
   */
  async function registerFor(
  applicantId: string, answerKey: string, body: RegisterDocumentBody, share: { email: string; network: string } | undefined, by?: string,
  ): Promise<{ status: DocumentStatus }> {
    const { file_key: fileKey, file_name: fileName } = body;
    if (!fileKey.startsWith(uploadPrefix(applicantId, answerKey)) || fileKey.includes('..')) {
      throw new HttpError(403, messages.upload_refused, { code: 'NOT_YOUR_FILE' });
    }
    const storedKey = documentKeyOf(fileKey);
    // the same upload registered again (a retried request, or forty on purpose): its conversion is
    // queued, running or done already, and queueing it again would only cost the converters
    const registeredAlready = async () => {
      const previous = await findDocument(db, applicantId, answerKey);
      return previous && previous.file_key === storedKey && previous.file_name === fileName && previous.status !== 'FAILED' ? previous : undefined;
    };
    const again = await registeredAlready();
    if (again) return { status: again.status };
    const previous = await findDocument(db, applicantId, answerKey);
    // from here on only the moved copy is read: what is checked is what is converted
    if (!(await storage.move(fileKey, storedKey))) {
      const raced = await registeredAlready(); // a retry that arrived while the first was registering
      if (raced) return { status: raced.status };
      // a conversion that failed is tried again from the copy kept at registration
      if (previous?.file_key !== storedKey) throw new HttpError(400, messages.file_missing, { code: 'FILE_MISSING' });
    }
    await spendUploadSlot(db, fileKey);
    // a refused upload is removed, unless it is the copy a failed conversion left (the question still holds it)
    const discard = () => (previous?.file_key === storedKey ? Promise.resolve() : storage.delete(storedKey));
    const size = await storage.size(storedKey);
    if (size === undefined) throw new HttpError(400, messages.file_missing, { code: 'FILE_MISSING' });
    const problem = fileProblem({ name: fileName, size });
    // a Word file where Word conversion is off is turned away before it replaces anything saved
    const off = declaredKind(fileName) === 'docx' ? deps.wordConversionOff?.() : undefined;
    if (problem || off) {
      await discard();
      throw problem ? new HttpError(400, problem, { code: 'BAD_FILE' }) : new HttpError(503, messages.converter_missing, { code: 'WORD_CONVERSION_OFF' });
    }
    // the quota again, with what really arrived: this upload (its slot is spent, so no longer
    // counted) replaces the question's previous file
    const [usage, converted, previousBytes] = await Promise.all([
      uploadUsage(db, applicantId), convertedBytes(applicantId), previous ? storedBytes(previous) : 0,
    ]);
    if (usage.documentBytes + converted + usage.slotBytes - previousBytes + size > quotaBytes) {
      await discard();
      throw overQuota();
    }
    await replaceDocument(db, applicantId, { answer_key: answerKey, file_key: storedKey, file_name: fileName, file_size: size });
    // an item's document is no answer of the form
    if (!isItemAnswerKey(answerKey)) await writeAnswers(db, applicantId, { [answerKey]: '' }, {});
    if (previous && previous.file_key !== storedKey) await removeFiles(previous);
    // the same upload registered again: its old conversion is no one's any more
    else if (previous?.pdf_key) await storage.delete(previous.pdf_key).catch(() => {});
    const kind = declaredKind(fileName);
    // one job per question, in its inbox's and network's turn: a newer upload replaces the payload of one still waiting
    await jobs.enqueue(kind === 'docx' ? 'convert_office_document' : 'convert_document', { applicantId, answerKey, fileKey: storedKey, ...(by ? { by } : {}) }, {
      owner: share ? `mailbox:${normalisedMailbox(share.email)}` : applicantId,
      ...(share ? { network: `network:${share.network}` } : {}),
      slotKey: conversionSlot(applicantId, answerKey),
    });
    return { status: 'UNPROCESSED' };
  }

  async function statusFor(applicantId: string, answerKey: string): Promise<{ status: DocumentStatus; message?: string }> {
    const row = await findDocument(db, applicantId, answerKey);
    if (!row) return { status: 'NOT_ANSWERED' };
    return { status: row.status, ...(row.message ? { message: row.message } : {}) };
  }

  return {
    async presign(applicantId: string, body: PresignUploadBody) {
      documentKey(body.answer_key);
      await notSubmitted(applicantId);
      return presignFor(applicantId, body.answer_key);
    },

    /** POST /uploads (local storage) writes only into a slot handed out and not yet swept. */
    async uploadSlotOpen(key: string): Promise<boolean> {
      return (await findUploadSlot(db, key)) !== undefined;
    },

    /** What arrived in a slot counts against the quota from now on, instead of its reservation. */
    async uploadStored(key: string, bytes: number): Promise<void> {
      await recordUploadStored(db, key, bytes);
    },

    /**
     * The upload is in storage: check it is this applicant's, then queue its conversion, in
     * the turn of the applicant's inbox and client network (`share`: what is scarce, not the
     * account; without it, the applicant's own turn).
     */
    async register(applicantId: string, answerKey: string, body: RegisterDocumentBody, share?: { email: string; network: string }): Promise<{ status: DocumentStatus }> {
      documentKey(answerKey);
      await notSubmitted(applicantId);
      return registerFor(applicantId, answerKey, body, share);
    },

    async status(applicantId: string, answerKey: string): Promise<{ status: DocumentStatus; message?: string }> {
      documentKey(answerKey);
      return statusFor(applicantId, answerKey);
    },

    /** Removes the document, its conversion and its answer. */
    async remove(applicantId: string, answerKey: string): Promise<{ status: DocumentStatus }> {
      documentKey(answerKey);
      await notSubmitted(applicantId);
      await removeFiles(await deleteDocument(db, applicantId, answerKey));
      await jobs.cancelQueued(conversionSlot(applicantId, answerKey));
      await writeAnswers(db, applicantId, { [answerKey]: '' }, {});
      return { status: 'NOT_ANSWERED' };
    },

    /** The document_answer map: name and size of each converted document. */
    list: async (applicantId: string): Promise<FilesByKey> => (await overview(applicantId)).converted,

    overview,

    /**
     * An application file item's document (item-documents.ts decides who may send one and
     * when): the same presigned POST, checks, quota, conversion and turns as a question's,
     * stored under `file-item:<item>`; `by` is who the item is received from once it converts.
     */
    item: {
      presign: (applicantId: string, itemId: string) => presignFor(applicantId, itemAnswerKey(itemId)),
      register: (applicantId: string, itemId: string, body: RegisterDocumentBody, share: { email: string; network: string } | undefined, by: string) =>
        registerFor(applicantId, itemAnswerKey(itemId), body, share, by),
      status: (applicantId: string, itemId: string) => statusFor(applicantId, itemAnswerKey(itemId)),
    },
  };
}

type FilesByKey = Record<string, { file_name: string; file_size: number }>;

export type DocumentService = ReturnType<typeof createDocumentService>;
