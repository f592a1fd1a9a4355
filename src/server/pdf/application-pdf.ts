import type { ApplicationPdfReply } from '../../shared/generated/api-types.ts';
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import documentsText from '../../../schemas/documents.json';
import partner from '../../../schemas/partner.json';
import { form } from '../../shared/form/form-model-data.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { isLanguage, LANGUAGE_PARAM, SOURCE_LANGUAGE, type Language } from '../../shared/i18n/languages.ts';
import { findApplicantById } from '../db/repositories/applicant-repository.ts';
import { findApplicationPdf, setApplicationPdf, startApplicationPdf } from '../db/repositories/application-pdf-repository.ts';
import { documentsOf } from '../db/repositories/document-repository.ts';
import { fileItemsOf } from '../db/repositories/file-item-repository.ts';
import { insertJob } from '../db/repositories/job-repository.ts';
import { addAnotherOf, tabsOf } from '../db/repositories/form-extras-repository.ts';
import { answersOf } from '../db/repositories/profile-repository.ts';
import type { Database } from '../db/tables.ts';
import type { UntrustedFileWorker } from '../documents/untrusted-file-worker.ts';
import { fileIn } from '../i18n/language-texts.ts';
import { PermanentJobError, type JobDefinition, type JobQueue } from '../jobs/job-queue.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { PrinterMissingError, type ChromiumPrinter } from './chromium-printer.ts';
import { signServiceToken } from './service-token.ts';

const PRINT_TOKEN_MS = 5 * 60_000;
/** the application PDF's job: one Chromium lane, two attempts (also queued by the export) */
export const PDF_JOB = { kind: 'application_pdf', lane: 'chromium', maxAttempts: 2 } as const;
/** longest one print of the application may take in the warm Chromium */
export const PRINT_TIMEOUT_MS = 30_000;

/** The applicant's language: a copy in another language is another copy. */
/** The PDF copy's title and file name in `language`, from schemas/documents.json and partner.json. */
function pdfCopyText(language: Language): { title: string; file_name: string } {
  const { title, file_name } = fileIn(language, 'documents.json', documentsText).pdf_copy;
  const values = { partner: partner.name, short_name: partner.short_name };
  return { title: fillTemplate(title, values), file_name: fillTemplate(file_name, values) };
}

async function languageOf(db: Kysely<Database>, applicantId: string): Promise<Language> {
  const language = (await findApplicantById(db, applicantId))?.language;
  return isLanguage(language) ? language : SOURCE_LANGUAGE;
}

/** What the PDF shows: when any of it changes, the next download is made afresh (the export checks a stored copy with it). */
export async function fingerprint(db: Kysely<Database>, applicantId: string): Promise<string> {
  const [answers, addAnother, tabs, documents, language, items] = await Promise.all([
    answersOf(db, applicantId), addAnotherOf(db, applicantId), tabsOf(db, applicantId), documentsOf(db, applicantId), languageOf(db, applicantId),
    fileItemsOf(db, applicantId),
  ]);
  const sorted = (value: Record<string, unknown>) => Object.keys(value).sort().map((key) => [key, value[key]]);
  const documentIds = documents.filter((row) => row.status === 'COMPLETED').map((row) => [row.answer_key, row.pdf_key]);
  return createHash('sha256').update(JSON.stringify([sorted(answers), sorted(addAnother), sorted(tabs), documentIds, form.pageOrder.map((id) => form.pages[id].version), language,
    // the copy's first page shows the application file's states (none stored: the print of before)
    ...(items.length ? [items.map((item) => [item.item_id, item.state, new Date(item.changed_at).toISOString()]).sort()] : [])])).digest('hex');
}

/**
 * The application's pages as the read-only service view shows them, printed in one visit
 * of the app: the first page loads it, the others are reached by its own navigation, each
 * printed once its sections show.
 */
export function printApplicationPages(printer: ChromiumPrinter, baseUrl: string, token: string, language: Language = SOURCE_LANGUAGE): Promise<Uint8Array[]> {
  // the copy is the applicant's: in their language (staff's own service view is English)
  const urls = form.pageOrder.map((page) => `${baseUrl}${form.pages[page].path}?service_token=${encodeURIComponent(token)}&${LANGUAGE_PARAM}=${language}`);
  // the first page also waits for the application file, which the service view loads apart
  const ready = (index: number) => `${index === 0 ? 'html:has([data-staff-file-shown]) ' : ''}.page-form-service[data-page="${form.pageOrder[index]}"] [data-section]`;
  return printer.print(urls, ready, PRINT_TIMEOUT_MS, { inApp: true });
}

/**
 * Queues a PDF copy of the application as it is now, unless one of it exists or is under
 * way (true: queued). The export asks for the copies it did not find; a server running jobs makes them.
 */
export async function queueApplicationPdf(db: Kysely<Database>, applicantId: string): Promise<boolean> {
  const print = await fingerprint(db, applicantId);
  if (!(await startApplicationPdf(db, applicantId, print))) return false;
  await insertJob(db, { kind: PDF_JOB.kind, lane: PDF_JOB.lane, maxAttempts: PDF_JOB.maxAttempts, payload: { applicantId, fingerprint: print } });
  return true;
}

export function createApplicationPdfService(deps: {
  db: Kysely<Database>; storage: ObjectStorage; jobs: JobQueue; printer: ChromiumPrinter; files: UntrustedFileWorker; serviceSecret: string; internalUrl: () => string;
}) {
  const { db, storage, jobs, printer, files } = deps;

  const job: JobDefinition = {
    lane: PDF_JOB.lane,
    maxAttempts: PDF_JOB.maxAttempts,
    async run(raw) {
      const { applicantId, fingerprint: print } = raw as { applicantId: string; fingerprint: string };
      if (!(await setApplicationPdf(db, applicantId, print, { status: 'IN_PROGRESS' }))) return; // superseded
      const token = signServiceToken(deps.serviceSecret, applicantId, PRINT_TOKEN_MS);
      const printed = await printApplicationPages(printer, deps.internalUrl(), token, await languageOf(db, applicantId)).catch((error: unknown) => {
        if (error instanceof PrinterMissingError) throw new PermanentJobError(error.message);
        throw error;
      });
      // the converted documents follow, in the order their questions come
      const documents = await documentsOf(db, applicantId);
      const order = Object.keys(form.fields);
      const converted: Uint8Array[] = [];
      for (const row of documents.filter((item) => item.status === 'COMPLETED' && item.pdf_key).sort((a, b) => order.indexOf(a.answer_key) - order.indexOf(b.answer_key))) {
        converted.push(await storage.get(row.pdf_key!));
      }
      // parsing the applicant's PDFs happens in the worker process, never on the event loop
      const merged = await files.run('mergePdfs', [...printed, ...converted], pdfCopyText(await languageOf(db, applicantId)).title);
      const pdfKey = `pdfs/${applicantId}/${print}.pdf`;
      await storage.put(pdfKey, merged, 'application/pdf');
      await setApplicationPdf(db, applicantId, print, { status: 'COMPLETED', pdf_key: pdfKey });
    },
    async onGiveUp(raw, error) {
      const { applicantId, fingerprint: print } = raw as { applicantId: string; fingerprint: string };
      await setApplicationPdf(db, applicantId, print, { status: 'FAILED', message: error instanceof PermanentJobError ? error.message : documentsText.messages.download_error });
    },
  };

  return {
    job,
    /** GET /api/pdf: starts the PDF of the current answers, or reports it ({status, url}). */
    async request(applicantId: string, retry: boolean): Promise<ApplicationPdfReply> {
      const print = await fingerprint(db, applicantId);
      const current = await findApplicationPdf(db, applicantId);
      const restart = current?.fingerprint === print && current.status === 'FAILED' && retry;
      if (!current || current.fingerprint !== print || restart) {
        if (restart) await setApplicationPdf(db, applicantId, print, { status: 'UNPROCESSED', message: null });
        else await startApplicationPdf(db, applicantId, print);
        await jobs.enqueue('application_pdf', { applicantId, fingerprint: print });
        return { status: 'UNPROCESSED' };
      }
      if (current.status === 'COMPLETED') return { status: 'COMPLETED', url: '/api/pdf/file' };
      return { status: current.status, ...(current.message ? { message: current.message } : {}) };
    },
    /** The PDF copy, with the file name it is downloaded under, both in the applicant's language. */
    async file(applicantId: string): Promise<{ bytes: Uint8Array; fileName: string } | undefined> {
      const current = await findApplicationPdf(db, applicantId);
      if (current?.status !== 'COMPLETED' || !current.pdf_key) return undefined;
      return { bytes: await storage.get(current.pdf_key), fileName: pdfCopyText(await languageOf(db, applicantId)).file_name };
    },
  };
}

export type ApplicationPdfService = ReturnType<typeof createApplicationPdfService>;
