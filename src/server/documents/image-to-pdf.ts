import { crc32, inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, type PDFRef, concatTransformationMatrix, drawObject, popGraphicsState, pushGraphicsState } from '@cantoo/pdf-lib';
import { FileRefusal } from './file-refusal.ts';
import { DECODED_PIXEL_BUDGET, MAX_PIXELS, imageSize, jpegEnd } from './image-size.ts';
import { recodePicture } from './picture-recode.ts';

/**
 * One image on a US Letter page, scaled to fit inside the margins (runs in the untrusted
 * file worker process). The upload is checked as it came (one header, its pixels counted,
 * its data whole), then decoded and written anew (picture-recode.ts: a JPEG as a JPEG, a PNG
 * as a PNG on white, turned as its EXIF orientation says), so the PDF carries pixels decoded
 * here and none of the stranger's bytes. The new JPEG's bytes are copied in as they are, and
 * so is the new PNG's compressed data (PDF reads PNG's row filters itself); pdf-lib decodes a
 * PNG itself only if one with transparency, interlacing or 16-bit samples ever reaches it,
 * and then from a PNG rebuilt of the parts checked here.
 */

const LETTER = { width: 612, height: 792 };
const MARGIN = 36;
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }; // grey, RGB, palette, grey + alpha, RGBA
const BIT_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]] as const;

export interface Png {
  header: Uint8Array;
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  palette: Uint8Array | undefined;
  transparency: Uint8Array | undefined;
  data: Buffer;
  copyable: boolean;
}

/**
 * A PNG's header, palette and joined image data, checked before anything decodes it: one
 * header, first; at most 40 megapixels; whole chunks; a known colour type and depth; and
 * image data that inflates (natively, bounded) to exactly the size the header promises with
 * a valid filter on every row. pdf-lib's PNG decoder loops forever on cut or damaged image
 * data, and decodes whatever header it meets last; such files are refused here instead.
 */
export function readPng(bytes: Uint8Array): Png {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let header: Uint8Array | undefined;
  let palette: Uint8Array | undefined;
  let transparency: Uint8Array | undefined;
  const idat: Uint8Array[] = [];
  for (let offset = 8, ended = false; !ended;) {
    if (offset + 12 > bytes.length) throw new Error('PNG cut short');
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    if (offset + 12 + length > bytes.length) throw new Error('PNG cut short');
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if ((type === 'IHDR') !== (offset === 8)) throw new FileRefusal('corrupt', 'PNG header not first, or twice');
    if (type === 'IHDR') header = data;
    else if (type === 'PLTE') palette = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'tRNS') transparency = data;
    ended = type === 'IEND';
    offset += 12 + length;
  }
  if (header?.length !== 13) throw new Error('PNG header');
  const headerView = new DataView(header.buffer, header.byteOffset, 13);
  const width = headerView.getUint32(0);
  const height = headerView.getUint32(4);
  const [bitDepth = 0, colorType = 0, , , interlace = 0] = header.subarray(8);
  if (width * height > MAX_PIXELS) throw new FileRefusal('image_too_large');
  if (width === 0 || height === 0 || !(colorType in CHANNELS) || !BIT_DEPTHS[colorType]!.includes(bitDepth) || interlace > 1) throw new Error('PNG header');
  if (colorType === 3 && (!palette || palette.length % 3 !== 0)) throw new Error('PNG palette');
  // PDF can read the compressed data as it is when there is no alpha, no interlacing, no 16 bits
  const copyable = !interlace && !transparency && bitDepth <= 8 && (colorType === 0 || colorType === 2 || colorType === 3);
  // anything else is decoded pixel by pixel: refused before anything is inflated when it would take long
  if (!copyable && width * height > DECODED_PIXEL_BUDGET) throw new FileRefusal('image_too_slow');
  const rowBytes = (columns: number) => 1 + Math.ceil((columns * CHANNELS[colorType]! * bitDepth) / 8);
  const passes = interlace ? ADAM7.map(([x, y, dx, dy]) => [Math.ceil((width - x) / dx), Math.ceil((height - y) / dy)] as const).filter(([w, h]) => w > 0 && h > 0) : [[width, height] as const];
  const expected = passes.reduce((sum, [w, h]) => sum + h * rowBytes(w), 0);
  const data = Buffer.concat(idat);
  const pixels = inflateSync(data, { maxOutputLength: expected + 1 }); // throws on damaged data
  if (pixels.length !== expected) throw new Error('PNG image data');
  let row = 0;
  for (const [w, h] of passes) {
    for (let index = 0; index < h; index++, row += rowBytes(w)) if (pixels[row]! > 4) throw new Error('PNG row filter');
  }
  return { header, width, height, bitDepth, colorType, palette, transparency, data, copyable };
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const framing = Buffer.alloc(8);
  framing.writeUInt32BE(data.length, 0);
  framing.writeUInt32BE(crc32(body), 4);
  return Buffer.concat([framing.subarray(0, 4), body, framing.subarray(4)]);
}

/** The PNG again from its checked parts only: what pdf-lib decodes is what readPng counted. */
function rebuiltPng(png: Png): Buffer {
  return Buffer.concat([
    SIGNATURE, chunk('IHDR', png.header),
    ...(png.palette ? [chunk('PLTE', png.palette)] : []),
    ...(png.transparency ? [chunk('tRNS', png.transparency)] : []),
    chunk('IDAT', png.data), chunk('IEND', new Uint8Array()),
  ]);
}

function embedCopiedPng(pdf: PDFDocument, png: Png) {
  const colors = CHANNELS[png.colorType]!;
  const colorSpace = png.colorType === 0 ? 'DeviceGray'
    : png.colorType === 2 ? 'DeviceRGB'
    : [PDFName.of('Indexed'), PDFName.of('DeviceRGB'), png.palette!.length / 3 - 1, pdf.context.stream(png.palette!)];
  const image = pdf.context.stream(png.data, {
    Type: 'XObject', Subtype: 'Image', Width: png.width, Height: png.height, BitsPerComponent: png.bitDepth,
    ColorSpace: colorSpace, Filter: 'FlateDecode',
    DecodeParms: { Predictor: 15, Colors: colors, BitsPerComponent: png.bitDepth, Columns: png.width },
  });
  return { ref: pdf.context.register(image), width: png.width, height: png.height };
}

/**
 * An uploaded PNG or JPEG as a one-page PDF. Refuses (FileRefusal) a header that is
 * missing or says two things, and more than 40 megapixels; throws on damaged data.
 */
export async function imageToPdf(bytes: Uint8Array, kind: 'png' | 'jpeg'): Promise<Uint8Array> {
  const size = imageSize(bytes, kind);
  if (!size) throw new FileRefusal('corrupt', 'no image header, or two that differ');
  if (size.width * size.height > MAX_PIXELS) throw new FileRefusal('image_too_large');
  if (kind === 'png') readPng(bytes); // refuses a damaged or too demanding PNG before anything decodes it
  const recoded = await recodePicture(bytes.subarray(0, kind === 'jpeg' ? (jpegEnd(bytes) ?? bytes.length) : bytes.length), { flatten: true, orient: true });
  if (recoded?.kind !== kind) throw new FileRefusal('corrupt', 'the picture does not decode');
  const pdf = await PDFDocument.create();
  let image: { ref: PDFRef; width: number; height: number };
  if (kind === 'png') {
    const png = readPng(recoded.bytes);
    // pdf-lib's decoders read the whole buffer under a view: each gets bytes of its own
    image = png.copyable ? embedCopiedPng(pdf, png) : await pdf.embedPng(new Uint8Array(rebuiltPng(png)));
  } else {
    image = await pdf.embedJpg(new Uint8Array(recoded.bytes));
  }
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
  return pdf.save({ useObjectStreams: false, objectsPerTick: Number.POSITIVE_INFINITY });
}
