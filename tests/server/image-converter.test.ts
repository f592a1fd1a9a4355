import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFDict, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { UntrustedFileWorker } from '../../src/server/documents/untrusted-file-worker.ts';
import { pngChunk } from '../../support/document-fixtures.ts';

/**
 * Images to PDF in the untrusted file worker: every PNG is decoded and written anew (on
 * white, 8 bits, not interlaced), and that PNG's compressed data goes into the PDF as it is
 * (PDF applies PNG's row filters itself); it must look as pdf-lib draws the original.
 * (The worker's limits: untrusted-file-worker.test.ts.)
 */
const worker = new UntrustedFileWorker();
const converter = { convert: async (bytes: Uint8Array, kind: 'png' | 'jpeg') => (await worker.run('convert', kind, bytes))! };
const folder = mkdtempSync(join(tmpdir(), 'image-converter-'));
/** Why a conversion was refused: its error's message ('converted' if it was not refused). */
const refusalOf = (conversion: Promise<unknown>) => conversion.then(() => 'converted', (error: Error) => error.message);
afterAll(async () => {
  await worker.close();
  rmSync(folder, { recursive: true, force: true });
});

const chunk = pngChunk;

/** Filters a row as PNG encoders do (0 none, 1 sub, 2 up, 3 average, 4 paeth), bpp bytes per pixel. */
function filterRow(type: number, row: Buffer, previous: Buffer, bpp: number): Buffer {
  const out = Buffer.alloc(row.length + 1);
  out[0] = type;
  for (let i = 0; i < row.length; i++) {
    const a = i >= bpp ? row[i - bpp]! : 0;
    const b = previous[i]!;
    const c = i >= bpp ? previous[i - bpp]! : 0;
    const p = a + b - c;
    const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
    const predictor = [0, a, b, (a + b) >> 1, paeth][type]!;
    out[i + 1] = (row[i]! - predictor) & 0xff;
  }
  return out;
}

const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]] as const;

/** A PNG of the given colour type with every row filter in turn, its data split over two IDAT chunks; interlaced on request. */
function makePng(options: { width: number; height: number; colorType: 0 | 2 | 3 | 6; bitDepth: number; interlace?: boolean; palette?: Buffer; transparency?: Buffer; pixel: (x: number, y: number) => number[] }): Buffer {
  const { width, height, colorType, bitDepth } = options;
  const channels = { 0: 1, 2: 3, 3: 1, 6: 4 }[colorType];
  const bpp = Math.max(1, (channels * bitDepth) / 8);
  const rows: Buffer[] = [];
  const passes = options.interlace ? ADAM7 : [[0, 0, 1, 1] as const];
  for (const [x0, y0, dx, dy] of passes) {
    const columns = Math.ceil((width - x0) / dx);
    if (columns <= 0 || y0 >= height) continue;
    const rowBytes = Math.ceil((columns * channels * bitDepth) / 8);
    let previous = Buffer.alloc(rowBytes);
    for (let y = y0; y < height; y += dy) {
      const row = Buffer.alloc(rowBytes);
      for (let column = 0; column < columns; column++) {
        const samples = options.pixel(x0 + column * dx, y);
        if (bitDepth === 8) samples.forEach((value, channel) => (row[column * channels + channel] = value));
        else {
          const perByte = 8 / bitDepth;
          row[Math.floor(column / perByte)]! |= samples[0]! << (8 - bitDepth * ((column % perByte) + 1));
        }
      }
      rows.push(filterRow(rows.length % 5, row, previous, bpp));
      previous = row;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = bitDepth;
  header[9] = colorType;
  header[12] = options.interlace ? 1 : 0;
  const data = deflateSync(Buffer.concat(rows));
  const half = Math.floor(data.length / 2);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...(options.palette ? [chunk('PLTE', options.palette)] : []),
    ...(options.transparency ? [chunk('tRNS', options.transparency)] : []),
    chunk('IDAT', data.subarray(0, half)), chunk('IDAT', data.subarray(half)), chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The reference: the same page made by pdf-lib decoding the PNG (what the worker did for every PNG before). */
async function referencePdf(png: Buffer): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(png);
  const landscape = image.width > image.height;
  const page = pdf.addPage(landscape ? [792, 612] : [612, 792]);
  const { width: pageWidth, height: pageHeight } = page.getSize();
  const scale = Math.min(1, (pageWidth - 72) / image.width, (pageHeight - 72) / image.height);
  page.drawImage(image, { x: (pageWidth - image.width * scale) / 2, y: (pageHeight - image.height * scale) / 2, width: image.width * scale, height: image.height * scale });
  return pdf.save();
}

function render(pdf: Uint8Array, name: string): Buffer {
  writeFileSync(join(folder, `${name}.pdf`), pdf);
  execFileSync('pdftoppm', ['-r', '60', '-singlefile', '-png', join(folder, `${name}.pdf`), join(folder, name)]);
  return readFileSync(join(folder, `${name}.png`));
}

async function imageOf(pdfBytes: Uint8Array): Promise<PDFRawStream> {
  const pdf = await PDFDocument.load(pdfBytes);
  const xObjects = pdf.getPage(0).node.Resources()!.lookup(PDFName.of('XObject'), PDFDict);
  return xObjects.lookup(xObjects.keys()[0]!) as PDFRawStream;
}

const palette = Buffer.from(Array.from({ length: 16 }, (_, index) => [index * 16, 255 - index * 16, (index * 64) % 256]).flat());
const cases = {
  'RGB, 8 bits': { png: makePng({ width: 320, height: 200, colorType: 2, bitDepth: 8, pixel: (x, y) => [(x * 3) % 256, (y * 5) % 256, (x * y) % 256] }), copied: true },
  'grey, 8 bits': { png: makePng({ width: 200, height: 300, colorType: 0, bitDepth: 8, pixel: (x, y) => [(x + y) % 256] }), copied: true },
  'grey, 1 bit': { png: makePng({ width: 203, height: 100, colorType: 0, bitDepth: 1, pixel: (x, y) => [(Math.floor(x / 10) + Math.floor(y / 10)) % 2] }), copied: true },
  'palette, 4 bits': { png: makePng({ width: 301, height: 120, colorType: 3, bitDepth: 4, palette, pixel: (x, y) => [(Math.floor(x / 20) + Math.floor(y / 20)) % 16] }), copied: true },
  'palette with transparency': { png: makePng({ width: 100, height: 100, colorType: 3, bitDepth: 4, palette, transparency: Buffer.from([0, 128]), pixel: (x) => [x % 16] }), copied: false },
  // pdf-lib's own decoder misreads some interlaced pixels (libpng, through sharp, reads them as written): the reference is the same pixels not interlaced
  'RGB, interlaced': {
    png: makePng({ width: 203, height: 101, colorType: 2, bitDepth: 8, interlace: true, pixel: (x, y) => [(x * 7) % 256, (y * 3) % 256, (x + y) % 256] }), copied: false,
    reference: makePng({ width: 203, height: 101, colorType: 2, bitDepth: 8, pixel: (x, y) => [(x * 7) % 256, (y * 3) % 256, (x + y) % 256] }),
  },
  'RGBA': { png: makePng({ width: 240, height: 160, colorType: 6, bitDepth: 8, pixel: (x, y) => [x % 256, y % 256, 128, (x + y) % 256] }), copied: false },
};

/** The largest difference of one colour sample between two renders of the same size. */
async function largestDifference(a: Buffer, b: Buffer): Promise<number> {
  const [first, second] = await Promise.all([sharp(a).raw().toBuffer(), sharp(b).raw().toBuffer()]);
  expect(first.length).toBe(second.length);
  let largest = 0;
  for (let index = 0; index < first.length; index++) largest = Math.max(largest, Math.abs(first[index]! - second[index]!));
  return largest;
}

describe('image to PDF', () => {
  it.each(Object.entries(cases))('%s: looks as pdf-lib draws it', async (label, testCase) => {
    const { png, copied } = testCase;
    const pdf = await converter.convert(png, 'png');
    const image = await imageOf(pdf);
    // the new PNG's compressed data with its predictor, whatever the original was (`copied`: it could have been before)
    expect(image.dict.get(PDFName.of('DecodeParms'))).toBeDefined();
    expect(typeof copied).toBe('boolean');
    const name = label.replace(/\W+/g, '-');
    const reference = render(await referencePdf('reference' in testCase ? testCase.reference : png), `${name}-reference`);
    // exactly, but for transparency: laid on white here, blended by the renderer there, a few levels of rounding apart
    expect(await largestDifference(render(pdf, `${name}-worker`), reference)).toBeLessThanOrEqual(copied ? 0 : 8);
  });

  it('refuses a PNG whose image data is cut short, damaged or too small for what is wrong with it, not by its time limit (pdf-lib would loop forever)', async () => {
    for (const [label, { png }] of Object.entries(cases)) {
      const idat = png.indexOf('IDAT');
      const damaged = Buffer.from(png);
      damaged.fill(0xff, idat + 20, idat + 60);
      // refused for what is wrong with the file, not stopped by the worker's time limit (a loop)
      expect(await refusalOf(converter.convert(damaged, 'png')), `${label} damaged`).toMatch(/^(PNG|incorrect|invalid|unexpected end|too many length)/i);
      expect(await refusalOf(converter.convert(png.subarray(0, idat + 40), 'png')), `${label} cut`).toMatch(/cut short/);
      expect(await refusalOf(converter.convert(png.subarray(0, png.length - 12), 'png')), `${label} without its end`).toMatch(/cut short/);
    }
    // a header that claims more pixels than the data holds
    const claims = Buffer.from(cases['grey, 8 bits'].png);
    claims.writeUInt32BE(5000, 16);
    await expect(converter.convert(claims, 'png')).rejects.toThrow();
    expect((await converter.convert(cases['grey, 8 bits'].png, 'png')).length).toBeGreaterThan(0); // the worker still serves
  });
});
