import { PDFArray, PDFDict, PDFDocument, PDFName } from 'pdf-lib';

/**
 * An uploaded PDF, loaded and saved again by pdf-lib: what cannot be parsed is refused,
 * and what could act when the file is opened is removed (document JavaScript, open
 * actions, additional actions, embedded files).
 */
export async function normalisePdf(bytes: Uint8Array): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const catalog = pdf.catalog;
  for (const name of ['OpenAction', 'AA', 'JavaScript']) catalog.delete(PDFName.of(name));
  const names = catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  names?.delete(PDFName.of('JavaScript'));
  names?.delete(PDFName.of('EmbeddedFiles'));
  for (const page of pdf.getPages()) {
    page.node.delete(PDFName.of('AA'));
    // links may run script too: drop every annotation action that is not a plain link
    const annotations = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    for (let index = 0; annotations && index < annotations.size(); index++) {
      const annotation = annotations.lookupMaybe(index, PDFDict);
      const action = annotation?.lookupMaybe(PDFName.of('A'), PDFDict);
      const kind = action?.get(PDFName.of('S'))?.toString();
      if (action && kind !== '/URI' && kind !== '/GoTo') annotation!.delete(PDFName.of('A'));
      annotation?.delete(PDFName.of('AA'));
    }
  }
  return pdf.save({ useObjectStreams: false });
}

export function isEncryptionError(error: unknown): boolean {
  return error instanceof Error && /encrypt/i.test(error.message);
}
