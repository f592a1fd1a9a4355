import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream, decodePDFRawStream } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { InflateBudget, InflateBudgetError, MAX_FILTERS, decodeStream, loadPdfWithinBudget } from '../../src/server/documents/pdf-inflate-budget.ts';
import { makePdf } from '../../support/document-fixtures.ts';
import { onePagePdf, pdfContentBomb, pdfDeepFilterChain, pdfObjectStreamBomb, zlibOfRepeated } from '../../support/fixtures/bomb-files.ts';

/**
 * The decompression budget: every filter of every stream of a PDF counts against one total
 * per file, while pdf-lib parses (object streams) and after (page contents, images).
 */
describe('the PDF decompression budget', () => {
  it('loads an honest PDF, object and cross-reference streams included, as pdf-lib does', async () => {
    const bytes = await makePdf(['Three pages'], 3); // pdf-lib saves with object streams
    expect(Buffer.from(bytes).toString('latin1')).toContain('/ObjStm');
    const pdf = await loadPdfWithinBudget(bytes);
    expect(pdf.getPageCount()).toBe(3);
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(3);
  });

  it('counts every filter\'s output: a budget of exactly what a file unpacks to passes, one byte less refuses it', async () => {
    const text = Buffer.from('BT /F1 18 Tf 72 700 Td (Counted) Tj ET '.repeat(1000));
    const once = deflateSync(text);
    const bytes = onePagePdf(deflateSync(once), ['/FlateDecode', '/FlateDecode']);
    const total = once.length + text.length; // the first filter's output, then the second's
    expect((await loadPdfWithinBudget(bytes, total)).getPageCount()).toBe(1);
    await expect(loadPdfWithinBudget(bytes, total - 1)).rejects.toThrow(InflateBudgetError);
  });

  it('refuses a 3 KB PDF whose object stream inflates to a gigabyte (compressed twice) while pdf-lib parses', async () => {
    const bomb = pdfObjectStreamBomb();
    expect(bomb.length).toBeLessThan(4096);
    await expect(loadPdfWithinBudget(bomb)).rejects.toThrow(InflateBudgetError);
    // the same bytes with a smaller object stream load: it is the size that is refused, not the form
    expect((await loadPdfWithinBudget(pdfObjectStreamBomb(1024 * 1024))).getPageCount()).toBe(1);
  });

  it('refuses a page content stream that inflates to a gigabyte through three filters (pdf-lib never unpacks it, a reader would)', async () => {
    const bomb = pdfContentBomb();
    expect((await PDFDocument.load(bomb)).getPageCount()).toBe(1); // pdf-lib alone loads it
    await expect(loadPdfWithinBudget(bomb)).rejects.toThrow(InflateBudgetError);
  });

  it(`refuses a filter chain longer than ${MAX_FILTERS}, however little it holds`, async () => {
    await expect(loadPdfWithinBudget(pdfDeepFilterChain(MAX_FILTERS + 1))).rejects.toThrow(/chain of/);
    expect((await loadPdfWithinBudget(pdfDeepFilterChain(MAX_FILTERS))).getPageCount()).toBe(1);
  });

  it('decodes the rarer filters as pdf-lib does, within the budget', async () => {
    const pdf = await PDFDocument.create();
    const text = Buffer.from('Hello, filters. '.repeat(200));
    const hex = Buffer.from(deflateSync(text).toString('hex') + '>');
    const stream = PDFRawStream.of(pdf.context.obj({ Filter: [PDFName.of('ASCIIHexDecode'), PDFName.of('FlateDecode')] }), hex);
    expect(Buffer.from(decodeStream(stream, new InflateBudget(1_000_000), true))).toEqual(Buffer.from(decodePDFRawStream(stream).decode()));
    expect(() => decodeStream(stream, new InflateBudget(text.length), true)).toThrow(InflateBudgetError);
    // an image codec ends the chain: its bytes are counted as they are
    const jpeg = PDFRawStream.of(pdf.context.obj({ Filter: 'DCTDecode' }), new Uint8Array([0xff, 0xd8, 0xff, 0xd9]));
    expect(decodeStream(jpeg, new InflateBudget(10), false)).toHaveLength(4);
  });

  it('inflates a repeated-block zlib stream exactly (the bomb builder is sound)', async () => {
    const { inflateSync } = await import('node:zlib');
    const stream = zlibOfRepeated({ prefix: Buffer.from('head '), pattern: Buffer.from('ab'), bytes: 3 * 1024 * 1024 + 5, suffix: Buffer.from(' tail') });
    const inflated = inflateSync(stream); // checks the Adler-32 too
    expect(inflated).toHaveLength(5 + 3 * 1024 * 1024 + 5 + 5);
    expect(inflated.subarray(0, 9).toString()).toBe('head abab');
    expect(inflated.subarray(-6).toString()).toBe('a tail');
  });
});
