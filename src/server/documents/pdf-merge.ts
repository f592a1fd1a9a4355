import { PDFDocument } from '@cantoo/pdf-lib';
import { loadPdfWithinBudget } from './pdf-inflate-budget.ts';

/**
 * The application PDF: the printed pages of the form, then the applicant's converted
 * documents, in the order given. Every part is loaded within the decompression budget
 * (runs in the untrusted file worker process).
 */
export async function mergePdfs(parts: Uint8Array[], title: string): Promise<Uint8Array> {
  const merged = await PDFDocument.create();
  merged.setTitle(title);
  for (const bytes of parts) {
    const source = await loadPdfWithinBudget(bytes);
    for (const page of await merged.copyPages(source, source.getPageIndices())) merged.addPage(page);
  }
  return merged.save({ objectsPerTick: Number.POSITIVE_INFINITY });
}
