import { imageSize, MAX_PIXELS } from './image-size.ts';
import type { PackagePart } from './docx-embedded.ts';
import { recodePicture } from './picture-recode.ts';

/**
 * The pictures inside a Word file, held to the budget of an uploaded image (40 megapixels)
 * before LibreOffice decodes them: a 3 KB file with a 625-megapixel PNG took LibreOffice
 * to 770 MB. Every part is judged by its bytes, whatever its name: PNG and JPEG (their
 * headers as image-size.ts reads them, a decoy header included), GIF, BMP and WebP. A
 * picture whose header cannot be read the one way LibreOffice would read it counts as too large.
 */
export function oversizedPicture(parts: PackagePart[], maxPixels = MAX_PIXELS): string | undefined {
  for (const part of parts) {
    if (part.directory) continue;
    const kind = pictureKind(part.data);
    if (!kind) continue;
    const size = kind === 'png' || kind === 'jpeg' ? imageSize(part.data, kind) : otherSize(part.data, kind);
    if (!size || size.width * size.height > maxPixels) return `${part.name}: ${size ? `${size.width} x ${size.height} pixels` : `unreadable ${kind} header`}`;
  }
  return undefined;
}

type PictureKind = 'png' | 'jpeg' | 'gif' | 'bmp' | 'webp';

function pictureKind(data: Buffer): PictureKind | undefined {
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  const start = data.subarray(0, 6).toString('latin1');
  if (start === 'GIF87a' || start === 'GIF89a') return 'gif';
  if (start.startsWith('BM') && data.length >= 26 && [12, 40, 52, 56, 64, 108, 124].includes(data.readUInt32LE(14))) return 'bmp'; // and a DIB header's size
  if (start.startsWith('RIFF') && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return undefined;
}

function otherSize(data: Buffer, kind: 'gif' | 'bmp' | 'webp'): { width: number; height: number } | undefined {
  try {
    if (kind === 'gif') return gifSize(data);
    if (kind === 'bmp') {
      const core = data.readUInt32LE(14) === 12; // OS/2 1.x: 16-bit sizes
      return core ? { width: data.readUInt16LE(18), height: data.readUInt16LE(20) } : { width: Math.abs(data.readInt32LE(18)), height: Math.abs(data.readInt32LE(22)) };
    }
    return webpSize(data);
  } catch {
    return undefined; // cut short
  }
}

/** The logical screen, and every frame's own rectangle: a frame may claim more than the screen. */
function gifSize(data: Buffer): { width: number; height: number } | undefined {
  let width = data.readUInt16LE(6);
  let height = data.readUInt16LE(8);
  const flags = data[10]!;
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  while (at < data.length) {
    const block = data[at];
    if (block === 0x3b) break; // trailer
    if (block === 0x21) { // extension: label, then sub-blocks
      at += 2;
      while (data[at]) at += data[at]! + 1;
      at++;
    } else if (block === 0x2c) { // image descriptor
      width = Math.max(width, data.readUInt16LE(at + 1) + data.readUInt16LE(at + 5));
      height = Math.max(height, data.readUInt16LE(at + 3) + data.readUInt16LE(at + 7));
      const local = data[at + 9]!;
      at += 10 + (local & 0x80 ? 3 * 2 ** ((local & 7) + 1) : 0) + 1; // and the LZW code size
      while (data[at]) at += data[at]! + 1;
      at++;
    } else {
      return undefined;
    }
  }
  return width && height ? { width, height } : undefined;
}

function webpSize(data: Buffer): { width: number; height: number } | undefined {
  const chunk = data.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8X') return { width: 1 + data.readUIntLE(24, 3), height: 1 + data.readUIntLE(27, 3) };
  if (chunk === 'VP8L') {
    const bits = data.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ') return { width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
  return undefined;
}

/**
 * Every part of a Word file that is neither markup nor a package left out already: a PNG,
 * JPEG, GIF or WebP is decoded and written anew (recodePicture), in place and under its own
 * name; anything else (an SVGZ, a TIFF, an EMF or WMF, a font, a part that will not decode)
 * is named in `leftOut`, and the caller leaves it out with whatever pointed at it. Only what
 * was recognised and decoded here reaches LibreOffice, which would sniff the rest.
 */
export async function recodePictures(parts: (PackagePart & { drop?: boolean })[], isBinary: (part: PackagePart) => boolean): Promise<{ recoded: string[]; leftOut: string[] }> {
  const recoded: string[] = [];
  const leftOut: string[] = [];
  for (const part of parts) {
    if (part.directory || part.drop || !isBinary(part)) continue;
    const picture = await recodePicture(part.data);
    if (picture) {
      part.data = picture.bytes;
      recoded.push(part.name);
    } else {
      part.drop = true;
      leftOut.push(part.name);
    }
  }
  return { recoded, leftOut };
}
