import yazl from 'yazl';
import { describe, expect, it } from 'vitest';
import { DOCX_BUDGET, countDocx } from '../../src/server/documents/docx-budget.ts';
import { makeDocx, makeTableDocx } from '../../support/document-fixtures.ts';

/**
 * The Word budget counts what LibreOffice will lay out, from the XML as it inflates:
 * table rows and cells by local name whatever the namespace prefix, and pages from breaks
 * or from the text's length. A comment never hides an element that follows it; what it
 * holds may count (more refused, never less).
 */

function zipOf(entries: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const file = new yazl.ZipFile();
    for (const [name, content] of Object.entries(entries)) file.addBuffer(Buffer.from(content), name);
    const chunks: Buffer[] = [];
    file.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
    file.end();
  });
}

describe('the Word layout budget', () => {
  it('counts a small file as one page without tables', async () => {
    expect(await countDocx(await makeDocx())).toEqual({ pages: 1, rows: 0, cells: 0 });
  });

  it('counts table rows and cells under any prefix, and stops reading past the budget', async () => {
    expect(await countDocx(await makeTableDocx(30, 4))).toMatchObject({ rows: 30, cells: 120 });
    expect(await countDocx(await makeTableDocx(30, 4, { prefix: 'x' }))).toMatchObject({ rows: 30, cells: 120 });
    const long = await countDocx(await makeTableDocx(50_000));
    expect(long!.rows).toBeGreaterThan(DOCX_BUDGET.rows);
    expect(long!.rows).toBeLessThan(50_000); // it stopped
  });

  it('estimates pages from page breaks, sections and text, in every XML part; a comment hides nothing after it', async () => {
    const breaks = '<w:p><w:r><w:br w:type="page"/></w:r></w:p>'.repeat(150);
    const document = (body: string) => `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`;
    expect((await countDocx(await zipOf({ 'word/document.xml': document(breaks) })))!.pages).toBe(151);
    const text = `<w:p><w:r><w:t>${'x'.repeat(30_000)}</w:t></w:r></w:p>`;
    expect((await countDocx(await zipOf({ 'word/document.xml': document(text) })))!.pages).toBe(10);
    const header = `<w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:tbl>${'<w:tr><w:tc/></w:tr>'.repeat(5)}</w:tbl></w:hdr>`;
    expect(await countDocx(await zipOf({ 'word/document.xml': document(''), 'word/header1.xml': header }))).toMatchObject({ rows: 5, cells: 5 });
    const commented = document(`<!-- a > b <w:tc/ -->${'<w:tr>'.repeat(3)}`);
    expect((await countDocx(await zipOf({ 'word/document.xml': commented })))!.rows).toBe(3);
  });
});
