import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import documentsText from '../../schemas/documents.json';
import { stripDocxLinks } from '../../src/server/documents/docx-links.ts';
import { LibreOfficeConverter, libreOfficeSandbox } from '../../src/server/documents/libreoffice.ts';
import { UntrustedFileWorker } from '../../src/server/documents/untrusted-file-worker.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { makeDocx, makePdf } from '../../support/document-fixtures.ts';
import { pdfImages, pdfText } from '../helpers/pdf-text.ts';
import {
  confirmedApplicantOverHttp, descendantsOf, isAlive, startProcessServer, type HttpSession, type ProcessServer,
} from '../helpers/process-server.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { conversionResult, uploadThroughApi } from '../../support/uploads.ts';
import { documentKeyOf } from '../../src/server/documents/document-service.ts';
import {
  LINKED_PNG, documentInsideDocument, macrosUnderAnotherName, ole2WithVba, pdfReferencingOutside, relationship, wordFile, wordWithPictureOf, zip,
} from '../fixtures/embedded-files.ts';

/**
 * Files inside files, and the converter's confinement failing closed. A Word document
 * embedded in a Word file is left out before LibreOffice sees it (its links were never
 * read), and LibreOffice's profile does not open embedded Microsoft objects anyway; macros
 * are found by content, pictures inside a Word file are held to the image budget and
 * LibreOffice to a memory limit; what LibreOffice writes is cleaned like an uploaded PDF,
 * and the cleaner drops references to files elsewhere. Where LibreOffice cannot get a
 * network of its own, Word conversion is off unless the operator allows the server's, and
 * /healthz says so. The processes that read strangers' files get none of the server's secrets.
 */

const messages = documentsText.messages;
const SOFFICE = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find(existsSync);
const root = process.getuid?.() === 0;
/** LibreOffice's picture of the linked file, by size (see LINKED_PNG). */
const LINKED = { width: 41, height: 29 };
/** The picture Word keeps of the embedded object (see PREVIEW_PNG). */
const PREVIEW = { width: 7, height: 5 };

/** An http listener on 127.0.0.1 that records every connection and request made to it (and serves the linked picture). */
async function listener(): Promise<{ server: Server; base: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'image/png' }).end(LINKED_PNG);
  });
  server.on('connection', () => seen.push('connection'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen };
}

/** A picture on the server's disk that LibreOffice's own user may read: nothing but the defences keeps it out. */
function pictureOnDisk(): { path: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), 'readable-by-all-'));
  chmodSync(folder, 0o755);
  const path = join(folder, 'private.png');
  writeFileSync(path, LINKED_PNG);
  chmodSync(path, 0o644);
  return { path, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** Every entry of a zip, inflated. */
function unzip(bytes: Uint8Array): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error);
      const entries = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(entries));
      file.readEntry();
    });
  });
}

/** soffice.bin processes started by this test process. */
const officePids = () => descendantsOf(process.pid).filter((pid) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'soffice.bin';
  } catch {
    return false;
  }
});

/** The environment a process started with, as names. */
const environmentOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').filter(Boolean).map((line) => line.slice(0, line.indexOf('=')));

/** The PDF an upload was converted to, from storage. */
async function convertedPdf(server: TestServer, fileKey: string): Promise<Uint8Array> {
  const row = await server.app.db.selectFrom('documents').select(['pdf_key']).where('file_key', '=', documentKeyOf(fileKey)).executeTakeFirstOrThrow();
  return server.app.storage.get(row.pdf_key!);
}

// ---------------------------------------------------------------------------------------

describe('docx-links: embedded packages and macros are judged by their bytes', () => {
  it('leaves out every part that is a package (zip or OLE2), whatever its name, with what pointed at it; keeps the object\'s picture', async () => {
    const body = '<w:p><w:r><w:object><v:shape id="s1"><v:imagedata r:id="rIdPreview"/></v:shape><o:OLEObject Type="Embed" ProgID="Excel.Sheet.12" ShapeID="s1" r:id="rIdObject"/></w:object></w:r></w:p>'
      + '<w:p><w:r><w:object><v:shape id="s2"><v:imagedata r:id="rIdPreview"/></v:shape><o:OLEObject Type="Embed" ProgID="Package" ShapeID="s2" r:id="rIdOle"/></w:object></w:r></w:p>';
    const bytes = await wordFile(body, [
      relationship('rIdObject', 'package', 'media/harmless.png', false), // a zip under a picture's name
      relationship('rIdOle', 'image', 'media/photo.jpg', false), // an OLE2 file under a picture's name and type
      relationship('rIdPreview', 'image', 'media/preview.png', false),
      relationship('rIdChart', 'chart', 'charts/chart1.xml', false),
    ], {
      'word/media/harmless.png': await makeDocx(['inside']),
      'word/media/photo.jpg': ole2WithVba().subarray(0, 512), // OLE2, no VBA
      'word/media/preview.png': LINKED_PNG,
      'word/charts/chart1.xml': '<?xml version="1.0"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><c:externalData r:id="rId1"/></c:chartSpace>',
      'word/charts/_rels/chart1.xml.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationship('rId1', 'package', '../embeddings/sheet.xlsx', false)}</Relationships>`,
      'word/embeddings/sheet.xlsx': await zip({ '[Content_Types].xml': '<Types/>' }),
    });
    const result = await stripDocxLinks(bytes);
    if (!('bytes' in result)) throw new Error(`refused: ${result.refused}`);
    const entries = await unzip(result.bytes);
    expect(entries.has('word/media/harmless.png')).toBe(false);
    expect(entries.has('word/media/photo.jpg')).toBe(false);
    expect(entries.has('word/embeddings/sheet.xlsx')).toBe(false);
    // the object's picture stays, written anew from its pixels
    expect(await sharp(entries.get('word/media/preview.png')!).raw().toBuffer()).toEqual(await sharp(LINKED_PNG).raw().toBuffer());
    expect(result.removed).toEqual(expect.arrayContaining([
      'word/media/harmless.png: embedded object (zip package)', 'word/media/photo.jpg: embedded object (OLE2 compound file)',
      expect.stringMatching(/linked OLE object/), expect.stringMatching(/external chart data/),
    ]));
    const document = entries.get('word/document.xml')!.toString('utf8');
    expect(document).not.toContain('OLEObject');
    expect(document.match(/<v:imagedata r:id="rIdPreview"\/>/g)).toHaveLength(2); // each object still shows its picture
    const rels = entries.get('word/_rels/document.xml.rels')!.toString('utf8');
    expect(rels).not.toMatch(/rIdObject|rIdOle/);
    expect(entries.get('word/charts/chart1.xml')!.toString('utf8')).not.toContain('externalData');
  });

  it('refuses macros however the part is named: content types, relationship, VBA stream', async () => {
    expect(await stripDocxLinks(await macrosUnderAnotherName())).toEqual({ refused: 'macros' });
    const onlyTheStream = await wordFile('<w:p/>', [], { 'word/media/theme.bin': ole2WithVba() });
    expect(await stripDocxLinks(onlyTheStream)).toEqual({ refused: 'macros' });
  });

  it('refuses a picture past 40 megapixels, told by its header, under any name', async () => {
    expect(await stripDocxLinks(await wordWithPictureOf(25_000, 25_000))).toMatchObject({ refused: 'picture_too_large' });
    expect(await stripDocxLinks(await wordWithPictureOf(4000, 3000))).toHaveProperty('bytes');
  });
});

// ---------------------------------------------------------------------------------------

describe.skipIf(!SOFFICE || !root)('the whole flow, with LibreOffice confined as this machine allows', () => {
  let server: TestServer;
  let web: Awaited<ReturnType<typeof listener>>;
  let disk: ReturnType<typeof pictureOnDisk>;
  let counter = 0;
  const applicant = () => createConfirmedApplicant(server.app, `embedded${++counter}@example.org`);
  const secrets = { DATABASE_URL: 'postgres://admin:hunter2@db.internal/admission', SMTP_URL: 'smtp://mailer:hunter2@mail.internal', WEBHOOK_SECRET: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0' };
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    // the server's secrets, as production has them in its environment
    for (const [name, value] of Object.entries(secrets)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    web = await listener();
    disk = pictureOnDisk();
    server = await startTestServer({ env: { CONVERTER_MEMORY_MB: '1536' } });
  });
  afterAll(async () => {
    await server?.close();
    web?.server.close();
    disk?.remove();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('a Word document inside a Word file: no picture from its links reaches the PDF, the object shows its own picture', async () => {
    const api = await applicant();
    const key = await uploadThroughApi(server.app, api, 'hs_transcript', 'transcript.docx', await documentInsideDocument(web.base, disk.path));
    expect(await conversionResult(api, 'hs_transcript', 120_000)).toEqual({ status: 'COMPLETED' });
    const pdf = await convertedPdf(server, key);
    expect(web.seen).toEqual([]);
    expect(pdfImages(pdf)).not.toContainEqual(LINKED);
    expect(pdfImages(pdf)).toContainEqual(PREVIEW);
    expect(pdfText(pdf)).toContain('Outer document');
  }, 240_000);

  it('a VBA project under another name is refused as macros', async () => {
    const api = await applicant();
    await uploadThroughApi(server.app, api, 'hs_transcript', 'transcript.docx', await macrosUnderAnotherName());
    expect(await conversionResult(api, 'hs_transcript', 120_000)).toEqual({ status: 'FAILED', message: messages.docx_macros });
  }, 240_000);

  it('a 625-megapixel picture inside a Word file is refused before LibreOffice decodes it', async () => {
    const api = await applicant();
    const bytes = await wordWithPictureOf(25_000, 25_000);
    expect(bytes.length).toBeLessThan(4096);
    await uploadThroughApi(server.app, api, 'hs_transcript', 'transcript.docx', bytes);
    expect(await conversionResult(api, 'hs_transcript', 120_000)).toEqual({ status: 'FAILED', message: messages.docx_picture_too_large });
  }, 240_000);

  it('LibreOffice runs under its memory limit and, like the untrusted file workers, without the server\'s secrets', async () => {
    const api = await applicant();
    await uploadThroughApi(server.app, api, 'activ_resume', 'statement.docx', await makeDocx(['Warm']));
    expect((await conversionResult(api, 'activ_resume', 120_000)).status).toBe('COMPLETED');
    const offices = officePids();
    expect(offices.length).toBeGreaterThan(0);
    for (const pid of offices) {
      expect(readFileSync(`/proc/${pid}/limits`, 'utf8')).toMatch(new RegExp(`Max address space\\s+${1536 * 1024 * 1024}\\s`));
      expect(environmentOf(pid)).not.toEqual(expect.arrayContaining([expect.stringMatching(/^(DATABASE_URL|SMTP_URL|WEBHOOK_SECRET)$/)]));
    }
    const workers = descendantsOf(process.pid).filter((pid) => isAlive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('untrusted-file-process'));
    expect(workers.length).toBeGreaterThan(0);
    for (const pid of workers) {
      const names = environmentOf(pid);
      for (const secret of Object.keys(secrets)) expect(names).not.toContain(secret);
    }
  }, 240_000);

  it('what LibreOffice writes is cleaned like an uploaded PDF: rebuilt from its pages', async () => {
    const api = await applicant();
    const key = await uploadThroughApi(server.app, api, 'activ_resume', 'statement.docx', await makeDocx(['Cleaned output']));
    expect((await conversionResult(api, 'activ_resume', 120_000)).status).toBe('COMPLETED');
    const pdf = Buffer.from(await convertedPdf(server, key));
    expect(pdfText(pdf)).toContain('Cleaned output');
    // LibreOffice signs its own output (/Producer, /Creator); a PDF rebuilt from the pages carries none of its document-level parts
    expect(pdf.toString('latin1')).not.toMatch(/LibreOffice|Writer/);
  }, 240_000);

  it('a PDF whose drawings point at files elsewhere (/Ref, /OPI, external stream data) loses those references', async () => {
    const api = await applicant();
    const hostile = await pdfReferencingOutside(web.base);
    expect(hostile.toString('latin1')).toMatch(/\/Ref[\s<]/);
    const key = await uploadThroughApi(server.app, api, 'supporting_document', 'letter.pdf', hostile);
    expect((await conversionResult(api, 'supporting_document', 60_000)).status).toBe('COMPLETED');
    const text = Buffer.from(await convertedPdf(server, key)).toString('latin1');
    expect(text).toContain('/XObject'); // the drawn objects themselves stay
    for (const marker of [/\/Ref[\s<]/, /\/OPI/, /\/Alternates/, /\/FFilter/, /127\.0\.0\.1/]) expect(text).not.toMatch(marker);
  }, 120_000);
});

describe.skipIf(!SOFFICE)('LibreOffice\'s profile', () => {
  it('does not open an embedded Word document even when nothing was stripped', async () => {
    const work = mkdtempSync(join(tmpdir(), 'embedded-profile-'));
    const disk = pictureOnDisk();
    const web = await listener();
    const converter = new LibreOfficeConverter({ sofficePath: SOFFICE, workDir: work, timeoutMs: 120_000 });
    try {
      writeFileSync(join(work, 'in.docx'), await documentInsideDocument(web.base, disk.path));
      await converter.convert(join(work, 'in.docx'), join(work, 'out.pdf'));
      const pictures = pdfImages(readFileSync(join(work, 'out.pdf')));
      expect(pictures).not.toContainEqual(LINKED);
      expect(pictures).toContainEqual(PREVIEW);
      expect(web.seen).toEqual([]);
    } finally {
      converter.stop();
      web.server.close();
      disk.remove();
      rmSync(work, { recursive: true, force: true });
    }
  }, 240_000);
});

describe('the untrusted file workers', () => {
  it('start with only the environment they need', async () => {
    const before = process.env.DATABASE_URL;
    process.env.DATABASE_URL = 'postgres://admin:hunter2@db.internal/admission';
    const worker = new UntrustedFileWorker({ processes: 1 });
    try {
      await worker.warm();
      const [pid] = worker.pids();
      const names = environmentOf(pid!);
      expect(names).not.toContain('DATABASE_URL');
      expect(names.filter((name) => !['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE'].includes(name))).toEqual([]);
      expect(await worker.run('convert', 'pdf', await makePdf())).toBeInstanceOf(Uint8Array); // and still work
    } finally {
      await worker.close();
      if (before === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = before;
    }
  }, 120_000);
});

// ---------------------------------------------------------------------------------------

/**
 * A machine where LibreOffice cannot get a network namespace (not root and no user
 * namespaces, as in most containers), played by an `unshare` on PATH that always fails:
 * the server is a separate process, as production runs it.
 */
describe.skipIf(!SOFFICE || !root)('where LibreOffice cannot get a network of its own', () => {
  const bin = mkdtempSync(join(tmpdir(), 'no-namespaces-'));
  writeFileSync(join(bin, 'unshare'), '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n', { mode: 0o755 });
  const env = { PATH: `${bin}:${process.env.PATH}`, CONVERSION_TIMEOUT_MS: '120000', CONVERTER_START_TIMEOUT_MS: '120000' };
  let server: ProcessServer | undefined;
  afterAll(async () => {
    await server?.close();
    rmSync(bin, { recursive: true, force: true });
  });

  async function upload(session: HttpSession, key: string, name: string, bytes: Buffer) {
    const presigned = await session.post<{ url: string; fields: Record<string, string> }>('/api/presigned-url', { answer_key: key });
    expect(await session.upload(presigned.body, name, bytes)).toBe(204);
    return session.post<{ status?: string; message?: string; code?: string }>(`/api/pdf/document-answer/${key}`, { file_key: presigned.body.fields.key, file_name: name });
  }
  const statusOf = async (session: HttpSession, key: string) => (await session.get<{ status: string }>(`/api/pdf/document-answer/${key}`)).body.status;

  it('the sandbox test is real: this machine gives LibreOffice a network of its own, the stand-in takes it away', () => {
    expect(libreOfficeSandbox().noNetwork).toBe(true);
    expect(spawnSync(join(bin, 'unshare'), ['--net', '--', 'true']).status).not.toBe(0);
  });

  it('without the override: a Word file is turned away with the schema\'s message, nothing saved is lost, /healthz says why', async () => {
    server = await startProcessServer({ env, readyTimeoutMs: 240_000 });
    const session = await confirmedApplicantOverHttp(server, 'closed@example.org');
    await session.put('/api/answer', { first_name: 'Kept' });
    expect((await upload(session, 'supporting_document', 'letter.pdf', await makePdf())).status).toBe(200);
    await expect.poll(() => statusOf(session, 'supporting_document'), { timeout: 60_000 }).toBe('COMPLETED');

    const refused = await upload(session, 'hs_transcript', 'transcript.docx', await makeDocx());
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ message: messages.converter_missing, code: 'WORD_CONVERSION_OFF' });
    expect(await statusOf(session, 'hs_transcript')).toBe('NOT_ANSWERED');
    expect(await statusOf(session, 'supporting_document')).toBe('COMPLETED');
    expect((await session.get<{ answer: Record<string, unknown> }>('/api/profile')).body.answer).toMatchObject({ first_name: 'Kept' });
    // nothing of the refused upload is kept
    const uploads = join(server.dataDir, 'objects', 'uploads');
    const kept = existsSync(uploads) ? readdirSync(uploads, { recursive: true }).map(String).filter((name) => name.includes('hs_transcript/')) : [];
    expect(kept).toEqual([]);

    const health = await fetch(`http://127.0.0.1:${server.port}/healthz`);
    expect(health.status).toBe(200);
    expect((await health.json()).converters.libreoffice).toMatchObject({ available: false, off: expect.stringContaining('CONVERTER_ALLOW_HOST_NETWORK') });
    expect(server.output).toContain('Word conversion is off');
    await server.close();
    server = undefined;
  }, 240_000);

  it('with CONVERTER_ALLOW_HOST_NETWORK=true it converts, /healthz says on the host\'s network, and an embedded document\'s links still reach nothing', async () => {
    const web = await listener();
    const disk = pictureOnDisk();
    try {
      server = await startProcessServer({ env: { ...env, CONVERTER_ALLOW_HOST_NETWORK: 'true' }, readyTimeoutMs: 240_000 });
      const session = await confirmedApplicantOverHttp(server, 'open@example.org');
      expect((await upload(session, 'hs_transcript', 'transcript.docx', await documentInsideDocument(web.base, disk.path))).status).toBe(200);
      await expect.poll(() => statusOf(session, 'hs_transcript'), { timeout: 180_000, interval: 500 }).toBe('COMPLETED');
      const pdf = await fetchConverted(session, server);
      expect(web.seen).toEqual([]); // LibreOffice had the network: only the defences kept it from the listener
      expect(pdfImages(pdf)).not.toContainEqual(LINKED);
      expect(pdfImages(pdf)).toContainEqual(PREVIEW);
      const health = await (await fetch(`http://127.0.0.1:${server.port}/healthz`)).json();
      expect(health.converters.libreoffice).toMatchObject({ available: true, network: 'host' });
    } finally {
      web.server.close();
      disk.remove();
    }
  }, 300_000);
});

/** The converted PDF of hs_transcript, as the server stored it (local storage under DATA_DIR/objects). */
async function fetchConverted(_session: HttpSession, server: ProcessServer): Promise<Buffer> {
  const folder = join(server.dataDir, 'objects', 'converted');
  const files = readdirSync(folder, { recursive: true }).map(String).filter((name) => name.includes('hs_transcript/') && name.endsWith('.pdf'));
  expect(files).toHaveLength(1);
  return readFileSync(join(folder, files[0]!));
}

