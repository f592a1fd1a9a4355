import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import documentsText from '../../../schemas/documents.json';
import { form } from '../../shared/form/form-model-data.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { writeAnswers } from '../db/repositories/answer-repository.ts';
import { findDocument, setDocumentStatus } from '../db/repositories/document-repository.ts';
import type { Database } from '../db/tables.ts';
import { PermanentJobError, type JobContext, type JobDefinition } from '../jobs/job-queue.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { FileRefusal } from './file-refusal.ts';
import { DOCX_BUDGET } from './docx-budget.ts';
import { DECODED_PIXEL_BUDGET } from './image-size.ts';
import { ConverterMissingError, FileTookTooLongError, type LibreOfficeConverter } from './libreoffice.ts';
import { declaredKind, type DocumentKind } from './sniff.ts';
import { storageSegment } from './document-service.ts';
import { isItemAnswerKey, ITEM_ANSWER_PREFIX } from '../../shared/file-items/item-documents.ts';
import { WorkerLimitError, type UntrustedFileWorker } from './untrusted-file-worker.ts';

const messages = documentsText.messages;
const EXTENSION_NAMES: Record<DocumentKind, string> = { png: 'PNG', jpeg: 'JPEG', pdf: 'PDF', docx: 'Word (.docx)' };

/** The message of a refusal, its limits filled in. */
function refusalMessage(reason: FileRefusal['reason'], kind: DocumentKind): string {
  if (reason === 'not_real_type') return fillTemplate(messages.not_real_type, { extension: EXTENSION_NAMES[kind] });
  if (reason === 'docx_too_long') return fillTemplate(messages.docx_too_long, DOCX_BUDGET);
  if (reason === 'image_too_slow') return fillTemplate(messages.image_too_slow, { megapixels: DECODED_PIXEL_BUDGET / 1_000_000 });
  return messages[reason];
}

/** How often a conversion is tried before it ends FAILED (a crash of the converter, a server stopped mid-way). */
export const CONVERSION_ATTEMPTS = 3;

export interface ConversionPayload {
  applicantId: string;
  answerKey: string;
  fileKey: string;
  /** an application file item's document: who it is received from ("applicant", "counselor", "office:<name>") */
  by?: string;
}

/**
 * Marks an application file item received with its converted document (fileItems.markIn), in
 * the transaction that records the conversion, or in its own (`tx` undefined); it may be called
 * again for the same document.
 */
export type ItemReceived = (tx: Transaction<Database> | undefined, applicantId: string, itemId: string, by: string, answerKey: string) => Promise<void>;

export interface Converters {
  /** every step that parses or decodes the upload runs there, never on the server's event loop */
  files: UntrustedFileWorker;
  office: LibreOfficeConverter;
  workDir: string;
}

/**
 * Turns an upload into a PDF (spec "Document upload and conversion"): the bytes must be
 * what the name says; images become a page, PDFs are cleaned of script, Word files go
 * through LibreOffice. A file that can never convert fails at once with a message the
 * applicant understands, and so does one that takes the untrusted file worker past its
 * memory or time limit. A Word file that takes LibreOffice past its timeout fails at once
 * too: LibreOffice is deterministic, so a retry would cost the same time again, in a lane
 * other applicants wait for, and end the same (the applicant is told to send a PDF). A
 * converter that crashes, or will not start, is retried, then fails.
 */
/**
 * How many of the converter's time limits a file that ran into it costs its owner and network
 * in the queue, beyond the turn it had: their next turn comes after everyone served in that
 * time, so a slow file costs more each time it is sent, not less.
 */
export const TIMEOUT_COST_IN_TIMEOUTS = 4;

export function conversionJob(deps: { db: Kysely<Database>; storage: ObjectStorage; converters: Converters; timeoutMs: number; itemReceived?: ItemReceived }, lane: string): JobDefinition {
  const { db, storage, converters } = deps;

  /** What the worker refused, or a limit it reached, as the failure the applicant sees; anything else is worth another try. */
  const asJobError = (kind: DocumentKind) => (error: unknown): never => {
    if (error instanceof FileRefusal) throw new PermanentJobError(refusalMessage(error.reason, kind));
    if (error instanceof WorkerLimitError) throw new PermanentJobError(messages.conversion_too_demanding);
    throw error;
  };

  async function toPdf(kind: DocumentKind, bytes: Uint8Array, { signal, charge }: JobContext): Promise<Uint8Array> {
    // checked and, but for a Word file, converted in the worker process; the result loads
    if (kind !== 'docx') return (await converters.files.run('convert', kind, bytes).catch(asJobError(kind)))!;
    const word = await converters.files.run('prepareWord', bytes).catch(asJobError(kind));
    const base = join(converters.workDir, randomUUID());
    await mkdir(converters.workDir, { recursive: true });
    try {
      await writeFile(`${base}.docx`, word, { mode: 0o600 });
      // the server is stopping: LibreOffice ends now, not when its start or this file's time runs out
      // (the queue gives the attempt back)
      const stopOffice = () => converters.office.stop();
      signal.addEventListener('abort', stopOffice, { once: true });
      await converters.office.convert(`${base}.docx`, `${base}.pdf`).catch((error: unknown) => {
        if (error instanceof ConverterMissingError) throw new PermanentJobError(messages.converter_missing);
        throw error;
      }).catch(async (error: unknown) => {
        if (!(error instanceof FileTookTooLongError) || signal.aborted) throw error; // a crash, or a LibreOffice that would not start: worth another try
        await charge(TIMEOUT_COST_IN_TIMEOUTS * deps.timeoutMs);
        throw new PermanentJobError(messages.conversion_timed_out);
      }).finally(() => signal.removeEventListener('abort', stopOffice));
      // LibreOffice's output is cleaned like an upload: it is what a stranger's file made it write
      return await converters.files.run('cleanConvertedPdf', await readFile(`${base}.pdf`)).catch(asJobError(kind));
    } finally {
      await rm(`${base}.docx`, { force: true });
      await rm(`${base}.pdf`, { force: true });
    }
  }

  return {
    lane,
    maxAttempts: CONVERSION_ATTEMPTS,
    async run(raw, context) {
      const { applicantId, answerKey, fileKey, by } = raw as ConversionPayload;
      const item = isItemAnswerKey(answerKey) ? answerKey.slice(ITEM_ANSWER_PREFIX.length) : undefined;
      const itemReceived = (tx?: Transaction<Database>) => (item && deps.itemReceived ? deps.itemReceived(tx, applicantId, item, by ?? 'applicant', answerKey) : Promise.resolve());
      const row = await findDocument(db, applicantId, answerKey);
      if (!row || row.file_key !== fileKey) return; // replaced or deleted
      // done already: a run that stopped between the conversion and the item's mark marks it now
      if (row.status === 'COMPLETED') return itemReceived();
      await setDocumentStatus(db, applicantId, answerKey, fileKey, { status: 'IN_PROGRESS' });
      const bytes = await storage.get(fileKey).catch(() => {
        throw new PermanentJobError(messages.file_missing);
      });
      const declared = declaredKind(row.file_name);
      if (!declared) throw new PermanentJobError(fillTemplate(messages.not_real_type, { extension: 'allowed' }));
      const pdf = await toPdf(declared, bytes, context);
      const pdfKey = `converted/${applicantId}/${storageSegment(answerKey)}/${randomUUID()}.pdf`;
      await storage.put(pdfKey, pdf, 'application/pdf');
      // one transaction: a reader never sees the document done while its answer is still unmarked
      const current = await db.transaction().execute(async (tx) => {
        if (!(await setDocumentStatus(tx, applicantId, answerKey, fileKey, { status: 'COMPLETED', pdf_key: pdfKey, message: null }))) return false;
        if (item) await itemReceived(tx);
        else await writeAnswers(tx, applicantId, { [answerKey]: 'ANSWERED' }, { [answerKey]: form.pages[form.fields[answerKey]!.page].version });
        return true;
      });
      if (!current) await storage.delete(pdfKey); // a newer upload took its place meanwhile
    },
    async onGiveUp(raw, error) {
      const { applicantId, answerKey, fileKey } = raw as ConversionPayload;
      const message = error instanceof PermanentJobError ? error.message : messages.conversion_failed;
      await setDocumentStatus(db, applicantId, answerKey, fileKey, { status: 'FAILED', message });
      await storage.delete(fileKey).catch(() => {});
    },
  };
}
