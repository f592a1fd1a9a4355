import sharp from 'sharp';
import { MAX_PIXELS } from './image-size.ts';

/**
 * Pictures decoded by a library made for them (libvips, through sharp) and written anew as
 * PNG or JPEG: what a converter then reads is pixels we decoded ourselves, never the
 * stranger's bytes. LibreOffice sniffs a picture's bytes and ignores its declared type, so a
 * gzip-compressed SVG named image1.png, an SVG inside a data: address, a TIFF or a metafile
 * would be read as what they are; written anew, only the pixels survive. Runs in the
 * untrusted file worker process (untrusted-file-tasks.ts), never on the server's event loop.
 */

// Only these decoders may run, whatever the bytes claim: libvips would otherwise also load
// SVG (with its links), TIFF, HEIF, PDF and more. Blocked for the whole worker process.
sharp.block({ operation: ['VipsForeignLoad'] });
sharp.unblock({ operation: ['VipsForeignLoadPngBuffer', 'VipsForeignLoadJpegBuffer', 'VipsForeignLoadNsgifBuffer', 'VipsForeignLoadWebpBuffer'] });
// one picture at a time, nothing kept: the worker's memory is watched, and a file is a few pictures
sharp.cache(false);
sharp.concurrency(1);

export type PictureKind = 'png' | 'jpeg' | 'gif' | 'webp';

/** What the bytes are, by their signature only (never by a name or a declared type). */
export function rasterKind(data: Uint8Array): PictureKind | undefined {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const start = bytes.subarray(0, 6).toString('latin1');
  if (start === 'GIF87a' || start === 'GIF89a') return 'gif';
  if (start.startsWith('RIFF') && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return undefined;
}

const FORMATS: Record<PictureKind, string> = { png: 'png', jpeg: 'jpeg', gif: 'gif', webp: 'webp' };

export interface RecodedPicture {
  bytes: Buffer;
  kind: 'png' | 'jpeg';
  width: number;
  height: number;
}

export interface RecodeOptions {
  maxPixels?: number;
  /** onto white, without transparency: a page is printed on white, and PDF then takes the PNG's data as it is */
  flatten?: boolean;
  /** turned as its EXIF orientation says (an uploaded phone photo), since the orientation is not written again */
  orient?: boolean;
}

/**
 * The picture decoded and written anew, without any of its metadata: a JPEG as a JPEG, any
 * other as a PNG; undefined when it is not a PNG, JPEG, GIF or WebP that decodes, or has
 * more than `maxPixels` (the library reads the header first and refuses before decoding).
 * Only the first frame of an animation is kept.
 */
export async function recodePicture(data: Uint8Array, options: RecodeOptions = {}): Promise<RecodedPicture | undefined> {
  const kind = rasterKind(data);
  if (!kind) return undefined;
  const maxPixels = options.maxPixels ?? MAX_PIXELS;
  try {
    const input = sharp(data, { limitInputPixels: maxPixels, failOn: 'error', pages: 1, sequentialRead: !options.orient });
    const metadata = await input.metadata();
    if (metadata.format !== FORMATS[kind] || !metadata.width || !metadata.height || metadata.width * metadata.height > maxPixels) return undefined;
    let image = options.orient ? input.rotate() : input;
    if (options.flatten) image = image.flatten({ background: '#ffffff' });
    const out = kind === 'jpeg' ? image.jpeg({ quality: 90 }) : image.png({ compressionLevel: 6, adaptiveFiltering: false });
    const { data: bytes, info } = await out.toBuffer({ resolveWithObject: true });
    return { bytes, kind: kind === 'jpeg' ? 'jpeg' : 'png', width: info.width, height: info.height };
  } catch {
    return undefined; // damaged, cut short, or a format its signature only pretended to be
  }
}
