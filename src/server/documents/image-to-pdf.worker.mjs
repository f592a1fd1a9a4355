// One image on a US Letter page, scaled to fit inside the margins. Runs in a worker
// thread: decoding and compressing a PNG again takes a few hundred milliseconds that must
// not block the server's event loop. (Plain JavaScript: a worker does not get the
// TypeScript loader.) JPEG bytes are copied as they are, and so is the compressed image
// data of a PNG without transparency (PDF reads PNG's row filters itself); only a PNG
// with an alpha channel, transparency, interlacing or 16-bit samples is decoded and
// compressed again by pdf-lib.
import { parentPort } from 'node:worker_threads';
import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, concatTransformationMatrix, drawObject, popGraphicsState, pushGraphicsState } from 'pdf-lib';

const LETTER = { width: 612, height: 792 };
const MARGIN = 36;
const CHANNELS = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }; // grey, RGB, palette, grey + alpha, RGBA
const BIT_DEPTHS = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]];

/**
 * A PNG's header, palette and joined image data, checked before anything decodes it: whole
 * chunks, a known colour type and depth, and image data that inflates (natively, bounded)
 * to exactly the size the header promises with a valid filter on every row. pdf-lib's PNG
 * decoder loops forever on cut or damaged image data; such a file is refused here instead.
 * @param {Uint8Array} bytes
 */
function readPng(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let header;
  let palette;
  let transparency = false;
  let ended = false;
  const idat = [];
  for (let offset = 8; !ended;) {
    if (offset + 12 > bytes.length) throw new Error('PNG cut short');
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    if (offset + 12 + length > bytes.length) throw new Error('PNG cut short');
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR' && length === 13) header = { width: view.getUint32(offset + 8), height: view.getUint32(offset + 12), bitDepth: data[8], colorType: data[9], interlace: data[12] };
    else if (type === 'PLTE') palette = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'tRNS') transparency = true;
    ended = type === 'IEND';
    offset += 12 + length;
  }
  if (!header || !(header.colorType in CHANNELS) || !BIT_DEPTHS[header.colorType].includes(header.bitDepth) || header.interlace > 1) throw new Error('PNG header');
  if (header.colorType === 3 && (!palette || palette.length % 3 !== 0)) throw new Error('PNG palette');
  const { width, height, bitDepth, colorType, interlace } = header;
  const rowBytes = (columns) => 1 + Math.ceil((columns * CHANNELS[colorType] * bitDepth) / 8);
  const passes = interlace ? ADAM7.map(([x, y, dx, dy]) => [Math.ceil((width - x) / dx), Math.ceil((height - y) / dy)]).filter(([w, h]) => w > 0 && h > 0) : [[width, height]];
  const expected = passes.reduce((sum, [w, h]) => sum + h * rowBytes(w), 0);
  const data = Buffer.concat(idat);
  const pixels = inflateSync(data, { maxOutputLength: expected + 1 }); // throws on damaged data
  if (pixels.length !== expected) throw new Error('PNG image data');
  let row = 0;
  for (const [w, h] of passes) {
    for (let index = 0; index < h; index++, row += rowBytes(w)) if (pixels[row] > 4) throw new Error('PNG row filter');
  }
  // PDF can read the compressed data as it is when there is no alpha, no interlacing, no 16 bits
  const copyable = !interlace && !transparency && bitDepth <= 8 && (colorType === 0 || colorType === 2 || colorType === 3);
  return { width, height, bitDepth, colorType, palette, data, copyable };
}

/** @param {PDFDocument} pdf @param {ReturnType<typeof readPng>} png */
function embedCopiedPng(pdf, png) {
  const colors = CHANNELS[png.colorType];
  const colorSpace = png.colorType === 0 ? 'DeviceGray'
    : png.colorType === 2 ? 'DeviceRGB'
    : [PDFName.of('Indexed'), PDFName.of('DeviceRGB'), png.palette.length / 3 - 1, pdf.context.stream(png.palette)];
  const image = pdf.context.stream(png.data, {
    Type: 'XObject', Subtype: 'Image', Width: png.width, Height: png.height, BitsPerComponent: png.bitDepth,
    ColorSpace: colorSpace, Filter: 'FlateDecode',
    DecodeParms: { Predictor: 15, Colors: colors, BitsPerComponent: png.bitDepth, Columns: png.width },
  });
  return { ref: pdf.context.register(image), width: png.width, height: png.height };
}

/** @param {Uint8Array} bytes @param {'png' | 'jpeg'} kind */
async function imageToPdf(bytes, kind) {
  const pdf = await PDFDocument.create();
  const png = kind === 'png' ? readPng(bytes) : undefined;
  // pdf-lib's images are written when the document is saved
  const image = png?.copyable ? embedCopiedPng(pdf, png) : png ? await pdf.embedPng(bytes) : await pdf.embedJpg(bytes);
  const landscape = image.width > image.height;
  const page = pdf.addPage(landscape ? [LETTER.height, LETTER.width] : [LETTER.width, LETTER.height]);
  const { width: pageWidth, height: pageHeight } = page.getSize();
  const scale = Math.min(1, (pageWidth - 2 * MARGIN) / image.width, (pageHeight - 2 * MARGIN) / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  const x = (pageWidth - width) / 2;
  const y = (pageHeight - height) / 2;
  const name = page.node.newXObject('Image', image.ref);
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(width, 0, 0, height, x, y), drawObject(name), popGraphicsState());
  return pdf.save({ useObjectStreams: false });
}

parentPort?.on('message', async ({ id, bytes, kind }) => {
  try {
    const pdf = await imageToPdf(bytes, kind);
    parentPort?.postMessage({ id, pdf }, [pdf.buffer]);
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
