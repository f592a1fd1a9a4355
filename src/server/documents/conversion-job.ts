import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { PDFDocument } from 'pdf-lib';
import documentsText from '../../../schemas/documents.json';
import { form } from '../../shared/form/form-model-data.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { writeAnswers } from '../db/repositories/answer-repository.ts';
import { findDocument, setDocumentStatus } from '../db/repositories/document-repository.ts';
import type { Database } from '../db/tables.ts';
import { PermanentJobError, type JobDefinition } from '../jobs/job-queue.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import type { ImageConverter } from './image-converter.ts';
import { imageSize, jpegEnd } from './image-size.ts';
import { ConverterMissingError, type LibreOfficeConverter } from './libreoffice.ts';
import { isEncryptionError, normalisePdf } from './pdf-normalise.ts';
import { checkDocx, declaredKind, sniffKind, type DocumentKind } from './sniff.ts';

const messages = documentsText.messages;
const MAX_PIXELS = 40_000_000;
const DOCX_LIMITS = { maxEntries: 1000, maxInflatedBytes: 50 * 1024 * 1024 };
const EXTENSION_NAMES: Record<DocumentKind, string> = { png: 'PNG', jpeg: 'JPEG', pdf: 'PDF', docx: 'Word (.docx)' };

export interface ConversionPayload {
  applicantId: string;
  answerKey: string;
  fileKey: string;
}

export interface Converters {
  images: ImageConverter;
  office: LibreOfficeConverter;
  workDir: string;
}

/**
 * Turns an upload into a PDF (spec "Document upload and conversion"): the bytes must be
 * what the name says; images become a page, PDFs are cleaned of script, Word files go
 * through LibreOffice. A file that can never convert fails at once with a message the
 * applicant understands; a converter that hangs or crashes is retried, then fails.
 */
export function conversionJob(deps: { db: Kysely<Database>; storage: ObjectStorage; converters: Converters }, lane: string): JobDefinition {
  const { db, storage, converters } = deps;

  async function toPdf(kind: DocumentKind, bytes: Uint8Array): Promise<Uint8Array> {
    if (kind === 'png' || kind === 'jpeg') {
      const size = imageSize(bytes, kind);
      if (!size) throw new PermanentJobError(messages.corrupt);
      if (size.width * size.height > MAX_PIXELS) throw new PermanentJobError(messages.image_too_large);
      // what follows a JPEG's end marker is no picture (a polyglot's HTML or zip): it stays behind
      const picture = kind === 'jpeg' ? bytes.subarray(0, jpegEnd(bytes) ?? bytes.length) : bytes;
      return converters.images.convert(picture, kind).catch(() => {
        throw new PermanentJobError(messages.corrupt);
      });
    }
    if (kind === 'pdf') {
      return normalisePdf(bytes).catch((error: unknown) => {
        throw new PermanentJobError(isEncryptionError(error) ? messages.encrypted_pdf : messages.corrupt);
      });
    }
    const problem = await checkDocx(bytes, DOCX_LIMITS);
    if (problem === 'macros') throw new PermanentJobError(messages.docx_macros);
    if (problem === 'corrupt' || problem === 'unsafe_path') throw new PermanentJobError(messages.corrupt);
    if (problem) throw new PermanentJobError(messages.docx_too_complex);
    const base = join(converters.workDir, randomUUID());
    await mkdir(converters.workDir, { recursive: true });
    try {
      await writeFile(`${base}.docx`, bytes);
      await converters.office.convert(`${base}.docx`, `${base}.pdf`).catch((error: unknown) => {
        if (error instanceof ConverterMissingError) throw new PermanentJobError(messages.converter_missing);
        throw error; // a hang or a crash: worth another try
      });
      return await readFile(`${base}.pdf`);
    } finally {
      await rm(`${base}.docx`, { force: true });
      await rm(`${base}.pdf`, { force: true });
    }
  }

  return {
    lane,
    maxAttempts: 3,
    async run(raw) {
      const { applicantId, answerKey, fileKey } = raw as ConversionPayload;
      const row = await findDocument(db, applicantId, answerKey);
      if (!row || row.file_key !== fileKey || row.status === 'COMPLETED') return; // replaced, deleted or done already
      await setDocumentStatus(db, applicantId, answerKey, fileKey, { status: 'IN_PROGRESS' });
      const bytes = await storage.get(fileKey).catch(() => {
        throw new PermanentJobError(messages.file_missing);
      });
      const declared = declaredKind(row.file_name);
      const actual = await sniffKind(bytes);
      if (!declared || actual !== declared) {
        throw new PermanentJobError(fillTemplate(messages.not_real_type, { extension: declared ? EXTENSION_NAMES[declared] : 'allowed' }));
      }
      const pdf = await toPdf(declared, bytes);
      await PDFDocument.load(pdf).catch(() => {
        throw new PermanentJobError(messages.conversion_failed);
      });
      const pdfKey = `converted/${applicantId}/${answerKey}/${randomUUID()}.pdf`;
      await storage.put(pdfKey, pdf, 'application/pdf');
      const current = await setDocumentStatus(db, applicantId, answerKey, fileKey, { status: 'COMPLETED', pdf_key: pdfKey, message: null });
      if (!current) {
        await storage.delete(pdfKey); // a newer upload took its place meanwhile
        return;
      }
      await writeAnswers(db, applicantId, { [answerKey]: 'ANSWERED' }, { [answerKey]: form.pages[form.fields[answerKey]!.page].version });
    },
    async onGiveUp(raw, error) {
      const { applicantId, answerKey, fileKey } = raw as ConversionPayload;
      const message = error instanceof PermanentJobError ? error.message : messages.conversion_failed;
      await setDocumentStatus(db, applicantId, answerKey, fileKey, { status: 'FAILED', message });
      await storage.delete(fileKey).catch(() => {});
    },
  };
}
