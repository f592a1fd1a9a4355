/**
 * Width and height from an image's header, read before anything is decoded: a tiny file
 * can claim 14,000 x 14,000 pixels and take gigabytes to decode (an image bomb).
 */
export function imageSize(bytes: Uint8Array, kind: 'png' | 'jpeg'): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (kind === 'png') {
    if (bytes.length < 24) return undefined;
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  // JPEG: walk the markers to the first start-of-frame
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    const length = view.getUint16(offset + 2);
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    offset += 2 + length;
  }
  return undefined;
}

/**
 * Where a JPEG's image ends (just after its end-of-image marker), or undefined when that
 * cannot be found. Bytes after it are not part of the picture: a polyglot hides an HTML
 * page or a zip there, and the PDF embeds JPEG bytes as they are, so they are cut off.
 */
export function jpegEnd(bytes: Uint8Array): number | undefined {
  let offset = 2;
  while (offset + 1 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) { offset++; continue; } // fill byte
    if (marker === 0xd9) return offset + 2;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { offset += 2; continue; } // no length
    if (offset + 3 >= bytes.length) return undefined;
    offset += 2 + ((bytes[offset + 2]! << 8) | bytes[offset + 3]!);
    if (marker !== 0xda) continue;
    // entropy-coded data after start-of-scan runs to the next marker that is not a stuffed 0xFF00 or a restart
    while (offset + 1 < bytes.length && !(bytes[offset] === 0xff && bytes[offset + 1] !== 0x00 && !(bytes[offset + 1]! >= 0xd0 && bytes[offset + 1]! <= 0xd7))) offset++;
  }
  return undefined;
}
