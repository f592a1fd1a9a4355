import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripDocxLinks } from '../../src/server/documents/docx-links.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { rgbPng } from '../../support/document-fixtures.ts';
import { docxWithPictures, svgInDataAddress, svgzShowing } from '../../support/fixtures/sniffed-pictures.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { conversionResult, uploadThroughApi } from '../../support/uploads.ts';
import { pdfImages, pdfText } from '../helpers/pdf-text.ts';

/**
 * Let in only what is recognised: every picture inside a Word file is decoded by a library
 * made for it and written anew as PNG or JPEG, or left out; an uploaded PNG or JPEG is
 * written anew before it is converted. LibreOffice sniffs bytes and ignores names and
 * declared types: an SVG compressed with gzip and named image1.png, or hidden in a data:
 * address inside a clean SVG, is read as SVG, and its <image> puts a file from the server's
 * disk into the applicant's PDF. Neither may reach LibreOffice.
 */

const SOFFICE = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find(existsSync);
const root = process.getuid?.() === 0;

const DISK = { width: 41, height: 29 }; // the picture on the server's disk the hostile SVGs name
const INSIDE = { width: 20, height: 10 }; // an honest picture inside the file
const DISK_PNG = rgbPng(DISK.width, DISK.height, () => [255, 0, 0]);
const INSIDE_PNG = rgbPng(INSIDE.width, INSIDE.height, () => [0, 0, 255]);

/** A Word file whose pictures hide an SVG that shows `file`: SVGZ named .png, an SVG in a data: address, and one honest PNG. */
const hostile = (file: string) => docxWithPictures('Hostile statement', [
  { name: 'word/media/image1.png', bytes: svgzShowing(`file://${file}`) },
  { name: 'word/media/image2.svg', bytes: svgInDataAddress(`file://${file}`) },
  { name: 'word/media/image3.png', bytes: INSIDE_PNG },
]);

function entries(bytes: Uint8Array): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error);
      const found = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => file.openReadStream(entry, (streamError, stream) => {
        if (streamError || !stream) return reject(streamError);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => {
          found.set(entry.fileName, Buffer.concat(chunks));
          file.readEntry();
        });
      }));
      file.on('end', () => resolve(found));
      file.readEntry();
    });
  });
}

let disk: string;
beforeAll(() => {
  // a picture any user may read: only the stripping and the converter's confinement keep it out
  disk = mkdtempSync(join(tmpdir(), 'attack-pictures-'));
  chmodSync(disk, 0o755);
  writeFileSync(join(disk, 'private.png'), DISK_PNG);
  chmodSync(join(disk, 'private.png'), 0o644);
});
afterAll(() => rmSync(disk, { recursive: true, force: true }));

describe('pictures inside a Word file: only what decodes as a picture, written anew', () => {
  it('leaves out an SVGZ named .png, an SVG with a data: address, a TIFF and a metafile; writes the honest PNG anew', async () => {
    const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0f0' } }).tiff().toBuffer();
    const emf = Buffer.concat([Buffer.from([1, 0, 0, 0, 108, 0, 0, 0]), Buffer.alloc(32), Buffer.from(' EMF', 'latin1'), Buffer.alloc(64)]);
    const file = await docxWithPictures('Statement', [
      { name: 'word/media/image1.png', bytes: svgzShowing(`file://${disk}/private.png`) },
      { name: 'word/media/image2.svg', bytes: svgInDataAddress(`file://${disk}/private.png`) },
      { name: 'word/media/image3.png', bytes: tiff },
      { name: 'word/media/image4.emf', bytes: emf },
      { name: 'word/media/image5.png', bytes: INSIDE_PNG },
    ]);
    const result = await stripDocxLinks(file);
    if (!('bytes' in result)) throw new Error(`refused: ${result.refused}`);
    const out = await entries(result.bytes);
    expect([...out.keys()].filter((name) => name.startsWith('word/media/'))).toEqual(['word/media/image5.png']);
    for (const [name, bytes] of out) expect(bytes.toString('latin1'), name).not.toMatch(/file:|data:|<svg/);
    const relationships = out.get('word/_rels/document.xml.rels')!.toString();
    expect(relationships).not.toMatch(/rIdPicture[0-3]"/);
    expect(relationships).toContain('rIdPicture4"');
    const kept = out.get('word/media/image5.png')!;
    expect(kept.equals(INSIDE_PNG)).toBe(false); // written anew...
    expect(await sharp(kept).raw().toBuffer()).toEqual(await sharp(INSIDE_PNG).raw().toBuffer()); // ...with the same pixels
  });
});

describe.skipIf(!SOFFICE)('the sniffed pictures, converted', () => {
  async function plainSoffice(bytes: Buffer): Promise<Buffer> {
    const dir = mkdtempSync(join(tmpdir(), 'attack-pictures-plain-'));
    try {
      writeFileSync(join(dir, 'hostile.docx'), bytes);
      await new Promise<void>((resolve, reject) => {
        const child = spawn(SOFFICE!, ['--headless', '--norestore', `-env:UserInstallation=file://${dir}/profile`, '--convert-to', 'pdf', '--outdir', dir, join(dir, 'hostile.docx')], { stdio: 'ignore' });
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`soffice exited with ${code}`))));
      });
      return readFileSync(join(dir, 'hostile.pdf'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('the attack is real: a plain soffice reads the file from disk through each of them', async () => {
    const file = `file://${disk}/private.png`;
    for (const bytes of [svgzShowing(file), svgInDataAddress(file)]) {
      const pdf = await plainSoffice(await docxWithPictures('Control', [{ name: 'word/media/image1.png', bytes }]));
      expect(pdfImages(pdf)).toContainEqual(DISK);
    }
  }, 180_000);

  describe.skipIf(!root)('through the whole upload flow', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(async () => {
      await server?.close();
    });

    it('an uploaded Word file with both converts, and its PDF holds the honest picture and nothing from disk', async () => {
      const api = await createConfirmedApplicant(server.app, 'sniffed@example.org');
      await uploadThroughApi(server.app, api, 'hs_transcript', 'transcript.docx', await hostile(join(disk, 'private.png')));
      expect(await conversionResult(api, 'hs_transcript', 120_000)).toEqual({ status: 'COMPLETED' });
      const row = await server.app.db.selectFrom('documents').select(['pdf_key']).where('answer_key', '=', 'hs_transcript').executeTakeFirstOrThrow();
      const pdf = await server.app.storage.get(row.pdf_key!);
      expect(pdfText(pdf)).toContain('Hostile statement');
      const images = pdfImages(pdf);
      expect(images).toContainEqual(INSIDE);
      expect(images).not.toContainEqual(DISK);
    }, 240_000);
  });
});

describe('an uploaded picture is written anew before it is converted', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a JPEG\'s own segments (a comment, metadata) do not reach the PDF; its pixels do', async () => {
    const mark = 'CARRIED-IN-A-JPEG-COMMENT-5e1d';
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#369' } }).jpeg().toBuffer();
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, mark.length + 2]), Buffer.from(mark, 'latin1')]);
    const marked = Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2)]); // a COM segment right after the start
    const api = await createConfirmedApplicant(server.app, 'jpeg-comment@example.org');
    await uploadThroughApi(server.app, api, 'hs_transcript', 'transcript.jpg', marked);
    expect(await conversionResult(api, 'hs_transcript')).toEqual({ status: 'COMPLETED' });
    const row = await server.app.db.selectFrom('documents').select(['pdf_key']).where('answer_key', '=', 'hs_transcript').executeTakeFirstOrThrow();
    const pdf = Buffer.from(await server.app.storage.get(row.pdf_key!));
    expect(pdf.includes(mark)).toBe(false);
    expect(pdfImages(pdf)).toEqual([{ width: 64, height: 48 }]);
  });
});
