import { checkDocxBudget } from './docx-budget.ts';
import { FileRefusal } from './file-refusal.ts';
import { imageToPdf } from './image-to-pdf.ts';
import { InflateBudgetError, MAX_INFLATED_BYTES, loadPdfWithinBudget } from './pdf-inflate-budget.ts';
import { mergePdfs } from './pdf-merge.ts';
import { isEncryptionError, normalisePdf } from './pdf-normalise.ts';
import { checkDocx, sniffKind, type DocumentKind } from './sniff.ts';
import { stripDocxLinks, type DocxLinkRefusal } from './docx-links.ts';

/**
 * Everything that parses or decodes an uploaded file, as the untrusted file worker process
 * runs it (untrusted-file-process.ts): never on the server's event loop. A file that can
 * never convert is refused with a FileRefusal naming the applicant's message.
 */

const DOCX_LIMITS = { maxEntries: 1000, maxInflatedBytes: 50 * 1024 * 1024 };

/** Why a Word file was refused, as the message the applicant sees. */
const WORD_REFUSALS: Record<DocxLinkRefusal, FileRefusal['reason']> = {
  corrupt: 'corrupt', unsafe_path: 'corrupt', too_many_entries: 'docx_too_complex', too_large: 'docx_too_complex',
  macros: 'docx_macros', picture_too_large: 'docx_picture_too_large',
};

const refusedAs = (reason: FileRefusal['reason']) => (error: unknown): never => {
  if (error instanceof FileRefusal) throw error;
  throw new FileRefusal(reason, error instanceof Error ? error.message : String(error));
};

/** An uploaded PDF, cleaned (see normalisePdf). */
function cleanPdf(bytes: Uint8Array): Promise<Uint8Array> {
  return normalisePdf(bytes).catch((error: unknown) => {
    if (error instanceof InflateBudgetError) throw new FileRefusal('pdf_too_much_data', error.message);
    throw new FileRefusal(isEncryptionError(error) ? 'encrypted_pdf' : 'corrupt', error instanceof Error ? error.message : String(error));
  });
}

/**
 * A Word file checked as a zip (see checkDocx), then written anew without anything that
 * reaches outside it (linked pictures, external relationships, INCLUDE/LINK fields,
 * templates, sub-documents, embedded objects: see stripDocxLinks), so LibreOffice fetches
 * and reads nothing; one with macros or a picture past the image budget is refused.
 */
async function checkWordFile(bytes: Uint8Array): Promise<Uint8Array> {
  const problem = await checkDocx(bytes, DOCX_LIMITS);
  if (problem === 'corrupt' || problem === 'unsafe_path') throw new FileRefusal('corrupt', problem);
  if (problem) throw new FileRefusal('docx_too_complex', problem);
  const stripped = await stripDocxLinks(bytes);
  if ('refused' in stripped) throw new FileRefusal(WORD_REFUSALS[stripped.refused], stripped.detail ?? stripped.refused);
  await checkDocxBudget(stripped.bytes); // what LibreOffice will lay out: pages, table rows and cells
  return stripped.bytes;
}

/** A PDF a converter produced (LibreOffice's) must load, within the budget. */
async function checkPdf(bytes: Uint8Array): Promise<void> {
  await loadPdfWithinBudget(bytes).catch(refusedAs('conversion_failed'));
}

/**
 * What LibreOffice made of a Word file, cleaned as an uploaded PDF is (see normalisePdf):
 * the converter read a stranger's file, so its output is no more trusted than the file.
 */
async function cleanConvertedPdf(bytes: Uint8Array): Promise<Uint8Array> {
  const pdf = await normalisePdf(bytes).catch((error: unknown) => {
    if (error instanceof InflateBudgetError) throw new FileRefusal('conversion_too_demanding', error.message);
    throw new FileRefusal('conversion_failed', error instanceof Error ? error.message : String(error));
  });
  await checkOwnPdf(pdf);
  return pdf;
}

/** So must one made here, of streams counted already (an image's checked data, a cleaned PDF's pages). */
async function checkOwnPdf(bytes: Uint8Array): Promise<void> {
  await loadPdfWithinBudget(bytes, MAX_INFLATED_BYTES, { parsedStreamsOnly: true }).catch(refusedAs('conversion_failed'));
}

export const untrustedFileTasks = {
  /**
   * An upload named as `declared`: its bytes must be that kind. A PNG, JPEG or PDF comes
   * back as a PDF that loads; a Word file comes back undefined once its zip passed the
   * checks (prepareWord gives LibreOffice its stripped copy).
   */
  async convert(declared: DocumentKind, bytes: Uint8Array): Promise<Uint8Array | undefined> {
    if ((await sniffKind(bytes)) !== declared) throw new FileRefusal('not_real_type');
    if (declared === 'docx') {
      await checkWordFile(bytes);
      return undefined;
    }
    const pdf = declared === 'pdf' ? await cleanPdf(bytes) : await imageToPdf(bytes, declared).catch(refusedAs('corrupt'));
    await checkOwnPdf(pdf);
    return pdf;
  },
  /** A Word file as LibreOffice may see it: checked, and written anew without links (cleanConvertedPdf then cleans what it made). */
  async prepareWord(bytes: Uint8Array): Promise<Uint8Array> {
    if ((await sniffKind(bytes)) !== 'docx') throw new FileRefusal('not_real_type');
    return checkWordFile(bytes);
  },
  checkPdf,
  cleanConvertedPdf,
  /** The application PDF from the printed pages and the converted documents (see mergePdfs). */
  mergePdfs,
};

export type UntrustedFileTasks = typeof untrustedFileTasks;
