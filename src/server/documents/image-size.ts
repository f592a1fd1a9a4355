/** The most pixels an image may have to be converted: 40 megapixels (schemas/documents.json, image_too_large). */
export const MAX_PIXELS = 40_000_000;

/**
 * The most pixels of a PNG that must be decoded to be converted (interlaced, with
 * transparency or 16-bit samples: see readPng's `copyable`): 8 megapixels. pdf-lib decodes
 * such a PNG in JavaScript at about a second a megapixel on a busy core, so a 154 KB
 * interlaced 40-megapixel PNG held a worker for 24-30 s; 8 megapixels (a 4K screenshot)
 * take a few. A regular PNG or a JPEG is copied into the PDF as it is, never decoded here,
 * so MAX_PIXELS alone bounds it.
 */
export const DECODED_PIXEL_BUDGET = 8_000_000;

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * Width and height from an image's header, read before anything is decoded: a tiny file
 * can claim 14,000 x 14,000 pixels and take gigabytes to decode (an image bomb). Undefined
 * when the header is missing or says two things: a PNG whose IHDR is not the first chunk
 * or comes twice, a JPEG whose frames differ in size. A decoy 1 x 1 header in front of the
 * real 8000 x 8000 one passed the size check, and the decoder read the other.
 */
export function imageSize(bytes: Uint8Array, kind: 'png' | 'jpeg'): ImageSize | undefined {
  return kind === 'png' ? pngSize(bytes) : jpegSize(bytes);
}

function pngSize(bytes: Uint8Array): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const typeAt = (offset: number) => String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
  if (bytes.length < 33 || typeAt(8) !== 'IHDR' || view.getUint32(8) !== 13) return undefined;
  // one header only: walk the chunks (a cut file is refused later, where its data is read)
  for (let offset = 33; offset + 12 <= bytes.length; offset += 12 + view.getUint32(offset)) {
    const type = typeAt(offset);
    if (type === 'IHDR') return undefined;
    if (type === 'IEND') break;
  }
  const size = { width: view.getUint32(16), height: view.getUint32(20) };
  return size.width > 0 && size.height > 0 ? size : undefined;
}

function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  const frames: ImageSize[] = [];
  walkJpeg(bytes, (marker, offset) => {
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame && offset + 9 <= bytes.length) {
      frames.push({ height: (bytes[offset + 5]! << 8) | bytes[offset + 6]!, width: (bytes[offset + 7]! << 8) | bytes[offset + 8]! });
    }
  });
  const [first] = frames;
  if (!first || first.width === 0 || first.height === 0) return undefined;
  return frames.every((frame) => frame.width === first.width && frame.height === first.height) ? first : undefined;
}

/**
 * Walks a JPEG's markers from its start to its end-of-image marker, calling `segment` for
 * each marker that has a length (with the offset of its 0xFF), and returns the offset just
 * after the end marker, or undefined when the markers do not lead there.
 */
function walkJpeg(bytes: Uint8Array, segment: (marker: number, offset: number) => void = () => {}): number | undefined {
  let offset = 2;
  while (offset + 1 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) { offset++; continue; } // fill byte
    if (marker === 0xd9) return offset + 2;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { offset += 2; continue; } // no length
    if (offset + 3 >= bytes.length) return undefined;
    segment(marker, offset);
    offset += 2 + ((bytes[offset + 2]! << 8) | bytes[offset + 3]!);
    if (marker !== 0xda) continue;
    // entropy-coded data after start-of-scan runs to the next marker that is not a stuffed 0xFF00 or a restart
    while (offset + 1 < bytes.length && !(bytes[offset] === 0xff && bytes[offset + 1] !== 0x00 && !(bytes[offset + 1]! >= 0xd0 && bytes[offset + 1]! <= 0xd7))) offset++;
  }
  return undefined;
}

/**
 * Where a JPEG's image ends (just after its end-of-image marker), or undefined when that
 * cannot be found. Bytes after it are not part of the picture: a polyglot hides an HTML
 * page or a zip there, and the PDF embeds JPEG bytes as they are, so they are cut off.
 */
export function jpegEnd(bytes: Uint8Array): number | undefined {
  return walkJpeg(bytes);
}
