import { pngChunk } from '../../support/fixtures/hostile-files.ts';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FileRefusal } from '../../src/server/documents/file-refusal.ts';
import { MAX_PIXELS, imageSize, jpegEnd } from '../../src/server/documents/image-size.ts';
import { imageToPdf, readPng } from '../../src/server/documents/image-to-pdf.ts';
import { jpegWithTwoFrames, pngWithDecoyHeader } from '../../support/fixtures/bomb-files.ts';
import { jpegClaiming, pngClaiming } from '../../support/fixtures/hostile-files.ts';

/**
 * Image headers: the size check and the decoder must read the same, single header, and the
 * decoder itself holds the 40-megapixel limit.
 */

const chunk = pngChunk;

/** A small grey PNG whose chunks are given after the signature. */
const png = (...chunks: Buffer[]) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks]);
function header(width: number, height: number): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = 8;
  return chunk('IHDR', data);
}
const pixels = (width: number, height: number) => chunk('IDAT', deflateSync(Buffer.alloc(height * (width + 1))));
const end = chunk('IEND', Buffer.alloc(0));

describe('image headers', () => {
  it('reads one PNG header, first', () => {
    expect(imageSize(png(header(4, 3), pixels(4, 3), end), 'png')).toEqual({ width: 4, height: 3 });
    expect(imageSize(pngClaiming(20_000, 20_000), 'png')).toEqual({ width: 20_000, height: 20_000 });
  });

  it('refuses a PNG with a decoy header before the real one, or a header that is not first', () => {
    expect(imageSize(pngWithDecoyHeader(), 'png')).toBeUndefined();
    expect(imageSize(png(header(1, 1), header(8000, 8000), pixels(1, 1), end), 'png')).toBeUndefined();
    expect(imageSize(png(chunk('tEXt', Buffer.from('a\0b')), header(4, 3), pixels(4, 3), end), 'png')).toBeUndefined();
  });

  it('the PNG decoder holds the same rules itself: one header, first, at most 40 megapixels', () => {
    expect(readPng(png(header(4, 3), pixels(4, 3), end))).toMatchObject({ width: 4, height: 3, copyable: true });
    expect(() => readPng(pngWithDecoyHeader())).toThrow(FileRefusal);
    expect(() => readPng(png(chunk('tEXt', Buffer.from('a\0b')), header(4, 3), pixels(4, 3), end))).toThrow(FileRefusal);
    const tooMany = Math.ceil(Math.sqrt(MAX_PIXELS)) + 1;
    expect(() => readPng(pngClaiming(tooMany, tooMany))).toThrow(expect.objectContaining({ reason: 'image_too_large' }));
  });

  it('refuses a JPEG whose frames differ in size', () => {
    expect(imageSize(jpegWithTwoFrames(), 'jpeg')).toBeUndefined();
  });

  it('reads a JPEG frame and finds the end marker', () => {
    const jpeg = jpegClaiming(640, 480);
    expect(imageSize(jpeg, 'jpeg')).toEqual({ width: 640, height: 480 });
    const twoAlike = Buffer.concat([Buffer.from([0xff, 0xd8]), ...[1, 2].map(() => Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x01, 0x01, 0x11, 0x00])), Buffer.from([0xff, 0xd9])]);
    expect(imageSize(twoAlike, 'jpeg')).toEqual({ width: 640, height: 480 });
    expect(jpegEnd(twoAlike)).toBe(twoAlike.length);
  });

  it('imageToPdf refuses what the size check refuses, with the reason the applicant sees', async () => {
    await expect(imageToPdf(pngWithDecoyHeader(), 'png')).rejects.toMatchObject({ reason: 'corrupt' });
    await expect(imageToPdf(jpegWithTwoFrames(), 'jpeg')).rejects.toMatchObject({ reason: 'corrupt' });
    await expect(imageToPdf(pngClaiming(8000, 8000), 'png')).rejects.toMatchObject({ reason: 'image_too_large' });
    expect((await imageToPdf(png(header(4, 3), pixels(4, 3), end), 'png')).length).toBeGreaterThan(0);
  });
});
