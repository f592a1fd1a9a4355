import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import type { Browser } from 'playwright-core';
import yazl from 'yazl';

/** Real documents made by the tests: images drawn by Chromium, a Word file, PDFs. */

export async function makeImage(browser: Browser, type: 'png' | 'jpeg', size = { width: 1200, height: 900 }, text = 'Official Transcript'): Promise<Buffer> {
  const page = await browser.newPage({ viewport: size });
  await page.setContent(`<body style="margin:0;background:#fff"><h1 style="font:48px serif;margin:40px">${text}</h1>
    <div style="display:grid;grid-template-columns:repeat(6,1fr);gap:8px;margin:40px">${Array.from({ length: 36 }, (_, index) =>
      `<div style="height:60px;background:hsl(${index * 17},60%,60%)"></div>`).join('')}</div></body>`);
  const bytes = await page.screenshot({ type, ...(type === 'jpeg' ? { quality: 85 } : {}) });
  await page.close();
  return bytes;
}

/** A zip of these entries, in memory (a .docx is one). */
export function zip(entries: Record<string, string | Buffer>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const file = new yazl.ZipFile();
    for (const [name, content] of Object.entries(entries)) file.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
    const chunks: Buffer[] = [];
    file.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
    file.end();
  });
}

/** A minimal but real .docx (Office Open XML) with the given paragraphs. */
export function makeDocx(paragraphs: string[] = ['Personal statement', 'I would like to study Biology.']): Promise<Buffer> {
  const body = paragraphs.map((text) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`).join('');
  return zip({
    '[Content_Types].xml': '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    '_rels/.rels': '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  });
}

/** A Word-looking zip whose one entry inflates to far more than it weighs. */
export async function makeZipBomb(inflatedBytes = 80 * 1024 * 1024): Promise<Buffer> {
  return zip({
    '[Content_Types].xml': '<Types/>',
    'word/document.xml': Buffer.alloc(inflatedBytes, 0x41),
  });
}

export async function makePdf(lines: string[] = ['Supporting document', 'Letter of recommendation'], pages = 1): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let index = 0; index < pages; index++) {
    const page = pdf.addPage([612, 792]);
    lines.forEach((line, row) => page.drawText(`${line}${pages > 1 ? ` (page ${index + 1})` : ''}`, { x: 72, y: 700 - row * 24, size: 16, font }));
  }
  return Buffer.from(await pdf.save());
}

/** A PDF that runs JavaScript when opened. */
export async function makePdfWithJavaScript(): Promise<Buffer> {
  const pdf = await PDFDocument.load(await makePdf(['Looks harmless']));
  const action = pdf.context.obj({ Type: 'Action', S: 'JavaScript', JS: "app.alert('hello')" });
  pdf.catalog.set(pdf.context.obj('OpenAction') as never, action);
  return Buffer.from(await pdf.save());
}

/** One PNG chunk: length, type, data and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG (8-bit RGB), each pixel the colour `pixel` gives it: a small picture without a browser. */
export function rgbPng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rows.set(pixel(x, y), y * (width * 3 + 1) + 1 + x * 3);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND', Buffer.alloc(0))]);
}

/**
 * A real interlaced PNG (Adam7, 8-bit RGB, or RGBA with `alpha`) of one colour: all-same
 * rows compress to almost nothing, so 40 megapixels weigh some 150 KB, and every pixel
 * must be decoded (interlacing cannot be copied into a PDF as it is).
 */
export function interlacedPng(width: number, height: number, rgb: [number, number, number] = [200, 30, 30]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 1], 8);
  const passes = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]] as const;
  const parts: Buffer[] = [];
  for (const [x, y, dx, dy] of passes) {
    const columns = Math.ceil((width - x) / dx);
    const lines = Math.ceil((height - y) / dy);
    if (columns <= 0 || lines <= 0) continue;
    const line = Buffer.alloc(1 + columns * 3);
    for (let column = 0; column < columns; column++) line.set(rgb, 1 + column * 3);
    for (let index = 0; index < lines; index++) parts.push(line);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(Buffer.concat(parts), { level: 9 })), pngChunk('IEND', Buffer.alloc(0))]);
}

/**
 * A .docx of one table, `rows` rows of `columns` cells, each cell a short line: a few KB
 * compressed, and minutes of LibreOffice's layout when the table is long enough. `prefix`
 * binds the WordprocessingML namespace to another name (what Word writes is `w`).
 */
export function makeTableDocx(rows: number, columns = 1, { title = 'Table', prefix = 'w' } = {}): Promise<Buffer> {
  const w = (name: string) => `${prefix}:${name}`;
  const cells = (row: number) => Array.from({ length: columns }, (_, column) => `<${w('tc')}><${w('p')}><${w('r')}><${w('t')}>Row ${row} cell ${column}</${w('t')}></${w('r')}></${w('p')}></${w('tc')}>`).join('');
  const table = `<${w('tbl')}><${w('tblPr')}><${w('tblW')} ${w('w')}="0" ${w('type')}="auto"/></${w('tblPr')}>${Array.from({ length: rows }, (_, row) => `<${w('tr')}>${cells(row)}</${w('tr')}>`).join('')}</${w('tbl')}>`;
  return makeDocxBody(`<${w('p')}><${w('r')}><${w('t')}>${title}</${w('t')}></${w('r')}></${w('p')}>${table}<${w('p')}/>`, prefix);
}

function makeDocxBody(body: string, prefix = 'w'): Promise<Buffer> {
  return zip({
    '[Content_Types].xml': '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    '_rels/.rels': '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><${prefix}:document xmlns:${prefix}="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><${prefix}:body>${body}</${prefix}:body></${prefix}:document>`,
  });
}
