import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripDocxLinks, type DocxLinkResult } from '../../src/server/documents/docx-links.ts';
import { LibreOfficeConverter, libreOfficeSandbox } from '../../src/server/documents/libreoffice.ts';
import { ChromiumPrinter } from '../../src/server/pdf/chromium-printer.ts';
import { findChromium } from '../../src/server/lib/find-executable.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { makeDocx, makeZipBomb, rgbPng } from '../../support/document-fixtures.ts';
import { pdfImages, pdfText } from '../helpers/pdf-text.ts';
import { TEST_BROWSER_SWITCH } from '../../support/browser.ts';
import { descendantsOf } from '../helpers/process-server.ts';
import { startTestServer } from '../../support/test-server.ts';
import { conversionResult, uploadThroughApi } from '../../support/uploads.ts';

/**
 * The converters reach nothing. A Word file whose pictures, fields and template are linked
 * (to an http listener on 127.0.0.1 and to files on the server's disk) is stripped of every
 * link before LibreOffice sees it (src/server/documents/docx-links.ts); LibreOffice itself
 * listens on no port, only on a UNO pipe its own user can open, and where the machine
 * allows it runs as `nobody` in a network namespace of its own; Chromium's print context
 * aborts every request that leaves the pages' own origin.
 */

const SOFFICE = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find(existsSync);
const CHROMIUM = findChromium(undefined); // the one the server prints with
const hasUno = spawnSync('/usr/bin/python3', ['-c', 'import uno'], { stdio: 'ignore' }).status === 0;
const root = process.getuid?.() === 0;

// ---------------------------------------------------------------------------------------
// Crafted Word files

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS = `xmlns:w="${W}" xmlns:r="${R}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"`;
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const CONTENT_TYPES = `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/></Types>`;
const ROOT_RELS = `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/></Relationships>`;

function zip(entries: Record<string, string | Buffer>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const file = new yazl.ZipFile();
    for (const [name, content] of Object.entries(entries)) file.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
    const chunks: Buffer[] = [];
    file.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
    file.end();
  });
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

const relationship = (id: string, type: string, target: string, external = true) =>
  `<Relationship Id="${id}" Type="${R}/${type}" Target="${target}"${external ? ' TargetMode="External"' : ''}/>`;
const relationships = (...items: string[]) => `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.join('')}</Relationships>`;
const documentXml = (body: string, namespaces = NS) => `${XML}<w:document ${namespaces}><w:body>${body}</w:body></w:document>`;
const paragraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

/** A picture in a run: `blip` is the a:blip's attributes (r:embed for a picture inside the file, r:link for a linked one). */
function picture(id: number, blip: string): string {
  return `<w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="${id}" name="Picture ${id}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="${id}" name="p${id}.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip ${blip}/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="914400"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
}

/** A complex field: its instruction in the given pieces (each its own w:instrText), then the result it last showed. */
const complexField = (instruction: string[], result: string) =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r>${instruction.map((piece) => `<w:r><w:instrText xml:space="preserve">${piece}</w:instrText></w:r>`).join('')}<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>${result}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;

function docx(document: string, documentRels: string[], extra: Record<string, string | Buffer> = {}): Promise<Buffer> {
  return zip({
    '[Content_Types].xml': CONTENT_TYPES,
    '_rels/.rels': ROOT_RELS,
    'word/_rels/document.xml.rels': relationships(...documentRels),
    'word/document.xml': document,
    ...extra,
  });
}

/** A picture's decoded pixels, whatever format holds them. */
const pixels = (bytes: Buffer) => sharp(bytes).raw().toBuffer();

/** A real PNG of one colour. */
const png = (width: number, height: number, rgb: [number, number, number]) => rgbPng(width, height, () => rgb);

const INSIDE_PNG = png(20, 10, [0, 0, 255]); // the one picture really inside the hostile file
const DISK_PNG = png(41, 29, [255, 0, 0]); // the server's own picture the file links to
const DISK_SECRET = 'SECRET-ON-DISK-7f3a';

/**
 * The attacker's file: pictures linked to `base` (an http listener) and to a PNG on disk
 * (r:link, r:embed of an external relationship, VML), INCLUDEPICTURE and INCLUDETEXT fields
 * (to the listener and to a text file on disk), an attached template at the listener, and
 * hyperlinks; one picture is really inside the file.
 */
function hostileDocx(base: string, diskPng: string, diskText: string): Promise<Buffer> {
  const body = [
    paragraph('Hostile statement'),
    `<w:p>${picture(1, 'r:link="rIdHttp"')}</w:p>`,
    `<w:p>${picture(2, 'r:link="rIdDisk"')}</w:p>`,
    `<w:p>${picture(3, 'r:embed="rIdDiskEmbed"')}</w:p>`,
    `<w:p>${picture(4, 'r:embed="rIdInside"')}</w:p>`,
    `<w:p><w:r><w:pict><v:shape id="s1" style="width:72pt;height:72pt"><v:imagedata r:id="rIdVml" o:title=""/></v:shape></w:pict></w:r></w:p>`,
    `<w:p><w:r><w:pict><v:shape id="s2" style="width:72pt;height:72pt"><v:imagedata src="file://${diskPng}" o:href="${base}/vml-href.png"/></v:shape></w:pict></w:r></w:p>`,
    `<w:p>${complexField([` INCLUDEPICTURE "${base}/field.png" \\d `], '[field picture]')}</w:p>`,
    `<w:p>${complexField([' INCLUDE', `PICTURE "file://${diskPng}" `], '[split field picture]')}</w:p>`,
    `<w:p><w:fldSimple w:instr=" INCLUDETEXT &quot;${diskText}&quot; "><w:r><w:t>[included text]</w:t></w:r></w:fldSimple></w:p>`,
    `<w:p>${complexField([` INCLUDETEXT "${base}/text.txt" `], '[http text]')}</w:p>`,
    '<w:p><w:hyperlink r:id="rIdWeb"><w:r><w:t>Our website</w:t></w:r></w:hyperlink><w:r><w:t xml:space="preserve"> and </w:t></w:r><w:hyperlink r:id="rIdFileLink"><w:r><w:t>a file link</w:t></w:r></w:hyperlink></w:p>',
  ].join('');
  return docx(documentXml(body), [
    relationship('rIdSettings', 'settings', 'settings.xml', false),
    relationship('rIdHttp', 'image', `${base}/linked.png`),
    relationship('rIdDisk', 'image', `file://${diskPng}`),
    relationship('rIdDiskEmbed', 'image', `file://${diskPng}`),
    relationship('rIdInside', 'image', 'media/inside.png', false),
    relationship('rIdVml', 'image', `${base}/vml.png`),
    relationship('rIdWeb', 'hyperlink', 'https://example.org/'),
    relationship('rIdFileLink', 'hyperlink', 'file:///etc/passwd'),
  ], {
    'word/_rels/settings.xml.rels': relationships(relationship('rIdTemplate', 'attachedTemplate', `${base}/template.dotx`)),
    'word/settings.xml': `${XML}<w:settings ${NS}><w:attachedTemplate r:id="rIdTemplate"/><w:linkStyles/></w:settings>`,
    'word/media/inside.png': INSIDE_PNG,
  });
}

async function stripped(bytes: Buffer): Promise<{ bytes: Uint8Array; removed: string[]; entries: Map<string, Buffer>; text: (name: string) => string }> {
  const result: DocxLinkResult = await stripDocxLinks(bytes);
  if (!('bytes' in result)) throw new Error(`refused: ${result.refused}`);
  const entries = await unzip(result.bytes);
  return { ...result, entries, text: (name) => entries.get(name)?.toString('utf8') ?? '' };
}

/** An http listener on 127.0.0.1 that records every connection made to it. */
async function listener(): Promise<{ server: Server; base: string; connections: string[] }> {
  const connections: string[] = [];
  const server = createServer((request, response) => {
    connections.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'image/png' }).end(DISK_PNG);
  });
  server.on('connection', () => connections.push('connection'));
  server.on('upgrade', (request, socket) => {
    connections.push(`upgrade ${request.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, connections };
}

// ---------------------------------------------------------------------------------------

describe('docx-links: what a Word file links to is taken out before LibreOffice sees it', () => {
  it('removes external relationships in every part, the linked pictures pointing at them, and keeps pictures inside the file', async () => {
    const bytes = await docx(documentXml([
      `<w:p>${picture(1, 'r:link="rId2"')}${picture(2, 'r:embed="rId3"')}${picture(3, 'r:embed="rId4"')}${picture(4, 'r:embed="rId4" r:link="rId2"')}</w:p>`,
    ].join('')), [
      relationship('rId2', 'image', 'http://127.0.0.1:9/linked.png'),
      relationship('rId3', 'image', 'file:///etc/secret.png', true),
      relationship('rId4', 'image', 'media/inside.png', false),
      relationship('rId5', 'header', 'header1.xml', false),
    ], {
      'word/media/inside.png': INSIDE_PNG,
      'word/header1.xml': `${XML}<w:hdr ${NS}><w:p>${picture(5, 'r:embed="rId1"')}</w:p></w:hdr>`,
      'word/_rels/header1.xml.rels': relationships(relationship('rId1', 'image', '\\\\attacker\\share\\x.png')),
      'word/footnotes.xml': `${XML}<w:footnotes ${NS}/>`,
      'word/_rels/footnotes.xml.rels': relationships(relationship('rId9', 'image', 'HTTP://127.0.0.1:9/f.png').replace('External', 'external')),
    });
    const out = await stripped(bytes);
    const rels = out.text('word/_rels/document.xml.rels');
    expect(rels).not.toMatch(/TargetMode|127\.0\.0\.1|file:/);
    expect(rels).toContain('Id="rId4"'); // the picture inside the file
    expect(rels).toContain('Id="rId5"');
    expect(out.text('word/_rels/header1.xml.rels')).not.toContain('Relationship ');
    expect(out.text('word/_rels/footnotes.xml.rels')).not.toContain('Relationship ');
    const document = out.text('word/document.xml');
    expect(document).not.toMatch(/r:link|rId2|rId3/);
    expect(document.match(/r:embed="rId4"/g)).toHaveLength(2);
    expect(out.text('word/header1.xml')).not.toContain('r:embed');
    expect(await pixels(out.entries.get('word/media/inside.png')!)).toEqual(await pixels(INSIDE_PNG)); // written anew, the same picture
    expect(out.removed).toEqual(expect.arrayContaining([expect.stringMatching(/external image relationship/), expect.stringMatching(/linked picture/)]));
  });

  it('keeps hyperlinks to web and mail addresses, drops others but keeps their text', async () => {
    const bytes = await docx(documentXml(`<w:p><w:hyperlink r:id="rId1"><w:r><w:t>web</w:t></w:r></w:hyperlink><w:hyperlink r:id="rId2"><w:r><w:t>mail</w:t></w:r></w:hyperlink><w:hyperlink r:id="rId3"><w:r><w:t>disk</w:t></w:r></w:hyperlink><w:hyperlink r:id="rId4"><w:r><w:t>share</w:t></w:r></w:hyperlink></w:p>`), [
      relationship('rId1', 'hyperlink', 'https://example.org/page'),
      relationship('rId2', 'hyperlink', 'mailto:someone@example.org'),
      relationship('rId3', 'hyperlink', 'file:///etc/passwd'),
      relationship('rId4', 'hyperlink', 'smb://attacker/share'),
    ]);
    const out = await stripped(bytes);
    const rels = out.text('word/_rels/document.xml.rels');
    expect(rels).toContain('https://example.org/page');
    expect(rels).toContain('mailto:someone@example.org');
    expect(rels).not.toMatch(/file:|smb:/);
    const document = out.text('word/document.xml');
    expect(document).toContain('<w:hyperlink r:id="rId1">');
    expect(document).toContain('<w:hyperlink r:id="rId2">');
    expect(document).not.toMatch(/rId3|rId4/);
    for (const text of ['web', 'mail', 'disk', 'share']) expect(document).toContain(`<w:t>${text}</w:t>`);
  });

  it('removes VML linked pictures: external r:id, o:href, src; keeps a VML picture inside the file', async () => {
    const bytes = await docx(documentXml(`<w:p><w:r><w:pict><v:shape id="a"><v:imagedata r:id="rId1" o:title="x"/></v:shape><v:shape id="b"><v:imagedata src="file:///etc/x.png" o:href="http://127.0.0.1:9/y.png" o:althref="http://127.0.0.1:9/z.png"/></v:shape><v:shape id="c"><v:imagedata r:id="rId2" o:title="inside"/><v:fill o:relid="rId1" type="frame"/></v:shape></w:pict></w:r></w:p>`), [
      relationship('rId1', 'image', 'http://127.0.0.1:9/vml.png'),
      relationship('rId2', 'image', 'media/inside.png', false),
    ], { 'word/media/inside.png': INSIDE_PNG });
    const document = (await stripped(bytes)).text('word/document.xml');
    expect(document).not.toMatch(/rId1|src=|o:href|o:althref|127\.0\.0\.1|file:/);
    expect(document).toContain('<v:imagedata r:id="rId2" o:title="inside"/>');
  });

  it('empties the instruction of fields that include pictures, text or links, and keeps what they showed', async () => {
    const fields = [
      complexField([' INCLUDEPICTURE "http://127.0.0.1:9/a.png" \\d '], 'shown picture'),
      complexField([' include', 'picture "file:///etc/x.png" '], 'split across runs'), // any case, split anywhere
      complexField([' \\INCLUDETEXT "C:\\\\secret.docx" '], 'backslash first'),
      complexField([' "LINK" Excel.Sheet.12 "file:///x.xlsx" "Sheet1!R1C1" \\a '], 'quoted name'),
      complexField(['<![CDATA[ DDEAUTO c:\\\\windows\\\\system32\\\\cmd.exe "/c calc" ]]>'], 'in CDATA'),
      complexField([' &#73;MPORT "http://127.0.0.1:9/i.wmf" '], 'entity-encoded name'),
      // a field whose name is the result of a field nested in its instruction
      `<w:r><w:fldChar w:fldCharType="begin"/></w:r>${complexField([' QUOTE "INCLUDEPICTURE" '], 'INCLUDEPICTURE')}<w:r><w:instrText xml:space="preserve"> "http://127.0.0.1:9/nested.png" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>nested</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`,
      complexField([' PAGE '], '1'), // harmless fields stay
      complexField([' HYPERLINK "https://example.org/" '], 'a link field'),
    ];
    const simple = ['INCLUDETEXT &quot;/etc/hostname&quot;', 'DDE Excel "C:\\\\a.xls" "R1C1"', 'IMPORT http://127.0.0.1:9/x.png', 'LINK Word.Document.12 "C:\\\\a.docx"', 'DATABASE \\d "C:\\\\data.mdb"']
      .map((instruction) => `<w:fldSimple w:instr=" ${instruction.replace(/"/g, '&quot;')} "><w:r><w:t>simple ${instruction.split(' ')[0]}</w:t></w:r></w:fldSimple>`);
    const out = await stripped(await docx(documentXml(`<w:p>${fields.join('')}${simple.join('')}<w:fldSimple w:instr=" NUMPAGES "><w:r><w:t>3</w:t></w:r></w:fldSimple></w:p>`), []));
    const document = out.text('word/document.xml');
    const instructions = [...document.matchAll(/<w:instrText[^>]*>([^]*?)<\/w:instrText>|w:instr="([^"]*)"/g)].map((match) => match[1] ?? match[2]);
    expect(instructions.filter(Boolean)).toEqual([' PAGE ', ' HYPERLINK "https://example.org/" ', ' NUMPAGES ']);
    expect(document).not.toMatch(/127\.0\.0\.1|file:|C:\\|hostname|&#73;/);
    for (const shown of ['shown picture', 'split across runs', 'backslash first', 'quoted name', 'in CDATA', 'entity-encoded name', 'nested']) expect(document).toContain(`<w:t>${shown}</w:t>`);
    for (const shown of ['INCLUDETEXT', 'DDE', 'IMPORT', 'LINK', 'DATABASE']) expect(document).toContain(`<w:t>simple ${shown}</w:t>`);
    expect(document).toContain('<w:instrText xml:space="preserve"> PAGE </w:instrText>');
    expect(document).toContain('HYPERLINK "https://example.org/"');
    expect(document).toContain('w:instr=" NUMPAGES "');
    expect(document.match(/w:instr=""/g)).toHaveLength(5);
    expect(out.removed).toEqual(expect.arrayContaining(['word/document.xml: INCLUDEPICTURE field', 'word/document.xml: DDEAUTO field', 'word/document.xml: INCLUDETEXT field']));
  });

  it('removes an attached template, sub-documents, imported chunks, framesets, linked and embedded OLE objects, mail merge sources and external chart data', async () => {
    const bytes = await docx(documentXml([
      paragraph('Before'),
      '<w:p><w:subDoc r:id="rId1"/></w:p>',
      '<w:altChunk r:id="rId2"/><w:altChunk r:id="rId3"/>',
      '<w:p><w:r><w:object><v:shape id="ole1"><v:imagedata r:id="rId6" o:title=""/></v:shape><o:OLEObject Type="Link" ProgID="Excel.Sheet.12" ShapeID="ole1" r:id="rId4" UpdateMode="Always"><o:LinkType>EnhancedMetaFile</o:LinkType></o:OLEObject></w:object></w:r></w:p>',
      '<w:p><w:r><w:object><v:shape id="ole2"/><o:OLEObject Type="Embed" ProgID="Excel.Sheet.12" ShapeID="ole2" r:id="rId5"/></w:object></w:r></w:p>',
      '<w:p><w:r><w:object><w:objectLink r:id="rId4" w:progId="Excel.Sheet.12" w:shapeid="x" w:updateMode="always"/></w:object></w:r></w:p>',
      paragraph('After'),
    ].join('')), [
      relationship('rId1', 'subDocument', 'file:///srv/other.docx'),
      relationship('rId2', 'aFChunk', 'http://127.0.0.1:9/chunk.htm'),
      relationship('rId3', 'aFChunk', 'chunk.htm', false),
      relationship('rId4', 'oleObject', 'file:///srv/book.xlsx'),
      relationship('rId5', 'package', 'embeddings/book.xlsx', false),
      relationship('rId6', 'image', 'media/inside.png', false),
    ], {
      'word/chunk.htm': '<html><body><img src="http://127.0.0.1:9/chunk.png"></body></html>',
      'word/media/inside.png': INSIDE_PNG,
      'word/embeddings/book.xlsx': Buffer.from('PK'),
      'word/settings.xml': `${XML}<w:settings ${NS}><w:attachedTemplate r:id="rId1"/><w:mailMerge><w:mainDocumentType w:val="formLetters"/><w:dataSource r:id="rId2"/></w:mailMerge><w:zoom w:percent="100"/></w:settings>`,
      'word/_rels/settings.xml.rels': relationships(relationship('rId1', 'attachedTemplate', 'file:///C:/Templates/Normal.dotm'), relationship('rId2', 'mailMergeSource', 'file:///C:/data.xlsx')),
      'word/webSettings.xml': `${XML}<w:webSettings ${NS}><w:frameset><w:frame><w:sourceFileName r:id="rId1"/></w:frame><w:frameset><w:frame/></w:frameset></w:frameset><w:optimizeForBrowser/></w:webSettings>`,
      'word/_rels/webSettings.xml.rels': relationships(relationship('rId1', 'frame', 'http://127.0.0.1:9/frame.docx')),
      'word/charts/chart1.xml': `${XML}<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="${R}"><c:chart/><c:externalData r:id="rId1"><c:autoUpdate val="1"/></c:externalData></c:chartSpace>`,
      'word/charts/_rels/chart1.xml.rels': relationships(relationship('rId1', 'package', 'file:///C:/book.xlsx')),
    });
    const out = await stripped(bytes);
    const document = out.text('word/document.xml');
    expect(document).not.toMatch(/subDoc|altChunk|Type="Link"|objectLink|rId1|rId2|rId3|rId4/);
    expect(document).not.toContain('OLEObject'); // an embedded object too: LibreOffice would open it as a document of its own
    expect(out.text('word/_rels/document.xml.rels')).not.toContain('rId5"');
    expect(document).toContain('<v:imagedata r:id="rId6" o:title=""/>'); // the linked object's picture stays
    expect(document).toContain('Before');
    expect(document).toContain('After');
    expect(out.text('word/_rels/document.xml.rels')).not.toMatch(/rId[1-4]"/);
    expect(out.text('word/settings.xml')).toBe(`${XML}<w:settings ${NS}><w:zoom w:percent="100"/></w:settings>`);
    expect(out.text('word/_rels/settings.xml.rels')).not.toContain('Relationship ');
    expect(out.text('word/webSettings.xml')).toBe(`${XML}<w:webSettings ${NS}><w:optimizeForBrowser/></w:webSettings>`);
    expect(out.text('word/charts/chart1.xml')).not.toContain('externalData');
  });

  it('drops internal relationships that are addresses or leave the package', async () => {
    const out = await stripped(await docx(documentXml(`<w:p>${picture(1, 'r:embed="rId1"')}${picture(2, 'r:embed="rId2"')}${picture(3, 'r:embed="rId3"')}${picture(4, 'r:embed="rId4"')}</w:p>`), [
      relationship('rId1', 'image', 'http://127.0.0.1:9/x.png', false),
      relationship('rId2', 'image', '../../../../etc/x.png', false),
      relationship('rId3', 'image', '%2e%2e/%2e%2e/%2e%2e/etc/x.png', false),
      relationship('rId4', 'image', '/word/media/inside.png', false),
    ], { 'word/media/inside.png': INSIDE_PNG }));
    const rels = out.text('word/_rels/document.xml.rels');
    expect(rels).not.toMatch(/rId[123]"/);
    expect(rels).toContain('Id="rId4"');
  });

  it('reads namespaces as LibreOffice does: other prefixes, defaults and comments do not hide anything', async () => {
    const namespaces = `xmlns:x="${W}" xmlns:q="${R}" xmlns:aa="http://schemas.openxmlformats.org/drawingml/2006/main"`;
    const body = `<!-- <x:fldChar x:fldCharType="end"/> --><x:p><x:r><x:fldChar x:fldCharType="begin"/></x:r><x:r><x:instrText>INCLUDEPICTURE "http://127.0.0.1:9/a.png"</x:instrText></x:r><x:r><x:fldChar x:fldCharType="end"/></x:r><x:r><aa:blip q:link="rId1"/></x:r><x:r><x:t><![CDATA[<x:fldChar x:fldCharType="begin"/>]]></x:t></x:r></x:p><x:p><x:r><x:instrText>INCLUDETEXT "file:///etc/hostname"</x:instrText></x:r></x:p>`;
    const out = await stripped(await docx(`${XML}<x:document ${namespaces}><x:body>${body}</x:body></x:document>`, [relationship('rId1', 'image', 'http://127.0.0.1:9/b.png')], {
      'word/settings.xml': `${XML}<settings xmlns="${W}" xmlns:rr="${R}"><attachedTemplate rr:id="rId1"/></settings>`,
      'word/_rels/settings.xml.rels': relationships(relationship('rId1', 'attachedTemplate', 'http://127.0.0.1:9/t.dotx')),
    }));
    const document = out.text('word/document.xml');
    expect(document).not.toMatch(/INCLUDE|q:link|127\.0\.0\.1|hostname/);
    expect(out.text('word/settings.xml')).toBe(`${XML}<settings xmlns="${W}" xmlns:rr="${R}"></settings>`);
  });

  it('leaves out XML it cannot read as LibreOffice would: UTF-16, other encodings, a DOCTYPE, broken markup', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(documentXml(complexField([' INCLUDEPICTURE "http://127.0.0.1:9/a.png" '], 'x')).replace('UTF-8', 'UTF-16'), 'utf16le')]);
    const out = await stripped(await docx(documentXml(paragraph('Main')), [], {
      'word/header1.xml': utf16,
      'word/header2.xml': `<?xml version="1.0" encoding="UTF-7"?><w:hdr ${NS}/>`,
      'word/header3.xml': `${XML}<!DOCTYPE w:hdr [<!ENTITY x SYSTEM "file:///etc/passwd">]><w:hdr ${NS}><w:p><w:r><w:t>&x;</w:t></w:r></w:p></w:hdr>`,
      'word/header4.xml': `${XML}<w:hdr ${NS}><w:p><w:r><w:instrText>INCLUDEPICTURE "http://x"</w:instrText></w:r></w:hdr>`,
      'word/_rels/header5.xml.rels': Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(relationships(relationship('rId1', 'image', 'http://127.0.0.1:9/a.png')), 'utf16le').swap16()]),
    }));
    expect([...out.entries.keys()].sort()).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/_rels/document.xml.rels', 'word/document.xml']);
    expect(out.removed).toHaveLength(5);
  });

  it('leaves SVG pictures out, and in every other part removes href and src other than #fragments, CSS url() and @import', async () => {
    const svg = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="1" height="1"/></svg>`;
    // a part that is no SVG by its root, which LibreOffice would still read as one if a picture pointed at it
    const custom = `${XML}<data xmlns:q="urn:not-xlink"><style>@import url(http://127.0.0.1:9/a.css); rect { fill: url(#g); background: url('file:///etc/x.png') }</style><image q:href="file:///etc/secret.png"/><image href="data:image/png;base64,iVBORw0KGgo="/><use href="#g"/><rect style="fill:url(http://127.0.0.1:9/c.svg#x)" src="file:///etc/y.png"/></data>`;
    const out = await stripped(await docx(documentXml(`<w:p>${picture(1, 'r:embed="rId1"')}</w:p>`), [relationship('rId1', 'image', 'media/image1.svg', false)], {
      'word/media/image1.svg': svg,
      'customXml/item1.xml': custom,
    }));
    expect(out.entries.has('word/media/image1.svg')).toBe(false);
    expect(out.text('word/_rels/document.xml.rels')).not.toContain('rId1');
    expect(out.text('word/document.xml')).not.toContain('r:embed');
    const cleaned = out.text('customXml/item1.xml');
    expect(cleaned).not.toMatch(/127\.0\.0\.1|file:|data:|@import/);
    expect(cleaned).toContain('fill: url(#g)');
    expect(cleaned).toContain('<use href="#g"/>');
    expect(cleaned).toContain('style="fill:none"');
    expect(out.removed).toContain('word/media/image1.svg: SVG picture');
  });

  it('leaves an honest file as it was: every entry the same, nothing removed', async () => {
    const honest = await docx(documentXml([
      paragraph('An honest personal statement'),
      `<w:p>${picture(1, 'r:embed="rId2"')}</w:p>`,
      `<w:p>${complexField([' PAGE '], '1')}<w:hyperlink r:id="rId3"><w:r><w:t>my portfolio</w:t></w:r></w:hyperlink></w:p>`,
      '<w:sectPr><w:headerReference w:type="default" r:id="rId4"/></w:sectPr>',
    ].join('')), [
      relationship('rId1', 'settings', 'settings.xml', false),
      relationship('rId2', 'image', 'media/image1.png', false),
      relationship('rId3', 'hyperlink', 'https://example.org/portfolio'),
      relationship('rId4', 'header', 'header1.xml', false),
    ], {
      'word/settings.xml': `${XML}<w:settings ${NS}><w:zoom w:percent="100"/></w:settings>`,
      'word/header1.xml': `${XML}<w:hdr ${NS}>${paragraph('Header')}</w:hdr>`,
      'word/media/image1.png': INSIDE_PNG,
    });
    for (const file of [honest, await makeDocx()]) {
      const out = await stripped(file);
      expect(out.removed).toEqual([]);
      const original = await unzip(file);
      expect([...out.entries.keys()]).toEqual([...original.keys()]);
      for (const [name, bytes] of original) {
        // a picture is written anew from its pixels; everything else is left as it was
        if (name.startsWith('word/media/')) expect(await pixels(out.entries.get(name)!)).toEqual(await pixels(bytes));
        else expect(out.entries.get(name), name).toEqual(bytes);
      }
    }
  });

  it('refuses what it cannot read within bounds: too many entries, a zip bomb, paths out, duplicate names, not a zip', async () => {
    const many = Object.fromEntries(Array.from({ length: 1001 }, (_, index) => [`word/media/${index}.png`, INSIDE_PNG]));
    expect(await stripDocxLinks(await docx(documentXml(''), [], many))).toEqual({ refused: 'too_many_entries' });
    expect(await stripDocxLinks(await makeZipBomb())).toEqual({ refused: 'too_large' });
    expect(await stripDocxLinks(await makeDocx(), { maxEntries: 1000, maxInflatedBytes: 100 })).toEqual({ refused: 'too_large' });
    expect(await stripDocxLinks(await zipWithNames(['word/document.xml', 'word/../../evil.xml']))).toEqual({ refused: 'unsafe_path' });
    expect(await stripDocxLinks(await zipWithNames(['word/document.xml', 'word/Document.xml']))).toEqual({ refused: 'corrupt' });
    expect(await stripDocxLinks(Buffer.from('not a zip at all'))).toEqual({ refused: 'corrupt' });
  });
});

/** A zip whose names yazl would not write (paths out, duplicates): written by hand, stored. */
function zipWithNames(names: string[]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const name of names) {
    const data = Buffer.from(documentXml(paragraph(name)));
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += 30 + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(names.length, 8);
  end.writeUInt16LE(names.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

// ---------------------------------------------------------------------------------------

/** soffice.bin processes started by this test process, with their command lines. */
function officeProcesses(): { pid: number; command: string }[] {
  return descendantsOf(process.pid).flatMap((pid) => {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'soffice.bin') return [];
      return [{ pid, command: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ') }];
    } catch {
      return [];
    }
  });
}

/** Sockets a process listens on over TCP, as its own network namespace and ours see them. */
function tcpListening(pid: number): string[] {
  const inodes = new Set(readdirSync(`/proc/${pid}/fd`).map((fd) => {
    try {
      return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
    } catch {
      return undefined;
    }
  }).filter(Boolean));
  const tables = [`/proc/${pid}/net/tcp`, `/proc/${pid}/net/tcp6`, '/proc/self/net/tcp', '/proc/self/net/tcp6'];
  return tables.flatMap((table) => (existsSync(table) ? readFileSync(table, 'utf8').split('\n').slice(1) : []))
    .map((line) => line.trim().split(/\s+/))
    .filter((cells) => cells[3] === '0A' && inodes.has(cells[9])) // 0A: LISTEN
    .map((cells) => cells[1]!);
}

describe.skipIf(!SOFFICE)('LibreOffice reaches nothing', () => {
  let disk: string;
  let web: Awaited<ReturnType<typeof listener>>;
  let converter: LibreOfficeConverter;
  const work = mkdtempSync(join(tmpdir(), 'attack-converters-'));

  beforeAll(async () => {
    web = await listener();
    // the server's own files the attacker names, readable by anyone: only the sanitiser keeps them out
    disk = mkdtempSync(join(tmpdir(), 'attack-disk-'));
    chmodSync(disk, 0o755);
    writeFileSync(join(disk, 'secret.png'), DISK_PNG);
    writeFileSync(join(disk, 'secret.txt'), `${DISK_SECRET}\n`);
    converter = new LibreOfficeConverter({ sofficePath: SOFFICE, workDir: work, timeoutMs: 120_000 });
  });
  afterAll(() => {
    converter?.stop();
    web?.server.close();
    rmSync(work, { recursive: true, force: true });
    rmSync(disk, { recursive: true, force: true });
  });

  async function convert(bytes: Uint8Array): Promise<Uint8Array> {
    const name = join(work, `${Date.now()}-${Math.random().toString(36).slice(2)}`);
    writeFileSync(`${name}.docx`, bytes);
    await converter.convert(`${name}.docx`, `${name}.pdf`);
    return readFileSync(`${name}.pdf`);
  }

  it('the attack is real: a plain soffice puts the picture from disk into the PDF', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'attack-plain-'));
    try {
      writeFileSync(join(dir, 'hostile.docx'), await hostileDocx(web.base, join(disk, 'secret.png'), join(disk, 'secret.txt')));
      await new Promise<void>((resolve, reject) => {
        const child = spawn(SOFFICE!, ['--headless', '--norestore', `-env:UserInstallation=file://${dir}/profile`, '--convert-to', 'pdf', '--outdir', dir, join(dir, 'hostile.docx')], { stdio: 'ignore' });
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`soffice exited with ${code}`))));
      });
      expect(pdfImages(readFileSync(join(dir, 'hostile.pdf')))).toContainEqual({ width: 41, height: 29 });
      // and its requests reach the listener before its conversion ends: the tests below
      // that find the listener empty once their conversion is done are not too early
      expect(web.connections).not.toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('a hostile Word file, sanitised then converted: the listener gets nothing, the PDF holds no picture or text from disk', async () => {
    web.connections.length = 0;
    const hostile = await hostileDocx(web.base, join(disk, 'secret.png'), join(disk, 'secret.txt'));
    const result = await stripDocxLinks(hostile);
    if (!('bytes' in result)) throw new Error(`refused: ${result.refused}`);
    const pdf = await convert(result.bytes); // done: what it fetches, it fetches before (the attack is real)
    expect(web.connections).toEqual([]);
    expect(pdfImages(pdf)).toEqual([{ width: 20, height: 10 }]); // only the picture inside the file
    const text = pdfText(pdf);
    expect(text).not.toContain(DISK_SECRET);
    for (const kept of ['Hostile statement', '[field picture]', '[included text]', 'Our website', 'a file link']) expect(text).toContain(kept);
  }, 180_000);

  it.skipIf(!libreOfficeSandbox().noNetwork)('even unsanitised, LibreOffice cannot reach the listener: it has no network', async () => {
    web.connections.length = 0;
    const pdf = await convert(await hostileDocx(web.base, join(disk, 'secret.png'), join(disk, 'secret.txt')));
    expect(web.connections).toEqual([]);
    expect(pdfText(pdf)).toContain('Hostile statement');
  }, 180_000);

  it.skipIf(!hasUno)('listens on no TCP port; its pipe is a socket only its own user can open; it runs confined', async () => {
    await convert(await makeDocx(['Warm']));
    const sandbox = libreOfficeSandbox();
    const offices = officeProcesses();
    expect(offices.length).toBeGreaterThan(0);
    for (const office of offices) {
      expect(tcpListening(office.pid)).toEqual([]);
      expect(office.command).not.toMatch(/socket,host|port=/);
      const pipe = /--accept=pipe,name=(\w+);/.exec(office.command)?.[1];
      expect(pipe).toMatch(/^admission_[0-9a-f]{32}$/); // random: not guessable
      // in /tmp as soffice sees it: its box, where it has a file system of its own
      const tmp = `/proc/${office.pid}/root/tmp`;
      const socketName = readdirSync(tmp).find((name) => name.startsWith('OSL_PIPE_') && name.endsWith(`_${pipe}`));
      expect(socketName).toBeDefined();
      const socketPath = join(tmp, socketName!);
      const socket = statSync(socketPath);
      expect(socket.isSocket()).toBe(true);
      expect(socket.mode & 0o777).toBe(0o700);
      expect(socket.uid).toBe(sandbox.uid);
      const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${office.pid}/status`, 'utf8'))?.[1]);
      expect(uid).toBe(sandbox.uid);
      if (root) {
        expect(sandbox.otherUser).toBe(true);
        expect(uid).not.toBe(0);
        // another local user cannot connect to the pipe
        const connect = spawnSync('setpriv', ['--reuid=4242', '--regid=4242', '--clear-groups', '/usr/bin/python3', '-c',
          `import socket; socket.socket(socket.AF_UNIX).connect(${JSON.stringify(socketPath)})`], { encoding: 'utf8' });
        expect(connect.status).not.toBe(0);
        expect(connect.stderr).toContain('PermissionError');
      }
      if (sandbox.noNetwork) {
        expect(readlinkSync(`/proc/${office.pid}/ns/net`)).not.toBe(readlinkSync('/proc/self/ns/net'));
        // from inside LibreOffice's namespace, 127.0.0.1 is not there
        const port = new URL(web.base).port;
        const probe = spawnSync('nsenter', [`--net=/proc/${office.pid}/ns/net`, '--', '/usr/bin/python3', '-c',
          `import socket; socket.create_connection(("127.0.0.1", ${port}), timeout=3)`], { encoding: 'utf8' });
        expect(probe.status).not.toBe(0);
        expect(probe.stderr).toMatch(/Network is unreachable|Connection refused/);
      }
    }
  }, 180_000);
});

describe.skipIf(!SOFFICE || !root)('the whole flow: an uploaded hostile Word file reaches nothing', () => {
  it('the listener gets nothing and files on the server\'s disk stay out of the PDF, even ones anyone may read', async () => {
    const web = await listener();
    const server = await startTestServer();
    try {
      // a picture and a text that LibreOffice's own user could read: only the stripping keeps them out
      const open = mkdtempSync(join(tmpdir(), 'readable-by-all-'));
      chmodSync(open, 0o755);
      const secretPng = join(open, 'private.png');
      const secretText = join(open, 'private.txt');
      writeFileSync(secretPng, DISK_PNG, { mode: 0o644 });
      writeFileSync(secretText, `${DISK_SECRET}\n`, { mode: 0o644 });
      chmodSync(secretPng, 0o644);
      chmodSync(secretText, 0o644);
      const api = await createConfirmedApplicant(server.app, 'linked@example.org');
      await uploadThroughApi(server.app, api, 'hs_transcript', 'transcript.docx', await hostileDocx(web.base, secretPng, secretText));
      expect(await conversionResult(api, 'hs_transcript', 120_000)).toEqual({ status: 'COMPLETED' });
      const row = await server.app.db.selectFrom('documents').select(['pdf_key']).where('answer_key', '=', 'hs_transcript').executeTakeFirstOrThrow();
      const pdf = await server.app.storage.get(row.pdf_key!); // converted: LibreOffice's requests would be in
      expect(web.connections).toEqual([]);
      expect(pdfImages(pdf)).not.toContainEqual({ width: 41, height: 29 });
      expect(pdfText(pdf)).not.toContain(DISK_SECRET);
      expect(pdfText(pdf)).toContain('Hostile statement');
    } finally {
      await server.close();
      web.server.close();
    }
  }, 240_000);
});

// ---------------------------------------------------------------------------------------

/**
 * Chromium's processes under this one, printing: none runs as root (as root Chromium
 * refuses its sandbox, so the printer starts it as the converters' unprivileged user), none
 * was told --no-sandbox, and its renderers run under the sandbox's seccomp filter (Seccomp
 * 2), which --no-sandbox would leave off. Called while a page is open, so that its renderer
 * is there to check (the full browser also kept a toolbar renderer; the headless shell has none).
 */
function expectSandboxedChromium(): void {
  const read = (pid: number, file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, 'utf8');
    } catch {
      return undefined; // ended while we looked
    }
  };
  // Chromium rewrites its command line into one string; a sandboxed child may show none. The
  // tests' own browser, which an earlier file of this worker may have left open, is not the printer's.
  const browsers = descendantsOf(process.pid).filter((pid) => {
    const command = (read(pid, 'cmdline') ?? '').replaceAll('\0', ' ');
    return /^\S*chromium\S*\s(?!.*--type=)/.test(command) && !command.includes(TEST_BROWSER_SWITCH);
  });
  expect(browsers.length).toBeGreaterThan(0);
  const processes = browsers.flatMap((pid) => [pid, ...descendantsOf(pid)])
    .map((pid) => ({ pid, command: (read(pid, 'cmdline') ?? '').replaceAll('\0', ' '), status: read(pid, 'status') ?? '' }))
    .filter((item) => item.status);
  for (const item of processes) {
    expect(item.command, `pid ${item.pid}`).not.toContain('--no-sandbox');
    if (root) expect(Number(/^Uid:\s+(\d+)/m.exec(item.status)?.[1]), `pid ${item.pid} ${item.command.slice(0, 80)}`).not.toBe(0);
  }
  // the renderers, the page's among them, run under the seccomp filter
  const renderers = processes.filter((item) => item.command.includes('--type=renderer'));
  expect(renderers.length).toBeGreaterThan(0);
  for (const item of renderers) expect(item.status, `pid ${item.pid}`).toMatch(/^Seccomp:\s+2/m);
}

describe.skipIf(!CHROMIUM)('Chromium prints only our own pages', () => {
  it('a page that asks for another origin (picture, style, frame, fetch, beacon, websocket, service worker) prints, and the other origin gets nothing', async () => {
    const other = await listener();
    const own: string[] = [];
    // the page's own request that waits for the test: its renderer is alive and running it meanwhile
    let answerHeld = () => {};
    let reachHeld = () => {};
    const pageWaiting = new Promise<void>((reached) => { reachHeld = reached; });
    const internal = createServer((request, response) => {
      own.push(request.url ?? '');
      if (request.url === '/held') {
        answerHeld = () => response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        return reachHeld();
      }
      if (request.url === '/own.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(INSIDE_PNG);
      if (request.url === '/sw.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(`self.addEventListener('fetch', () => fetch('${other.base}/from-worker'))`);
      if (request.url !== '/page') return response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head>
        <link rel="stylesheet" href="${other.base}/style.css"><link rel="preconnect" href="${other.base}"><link rel="prefetch" href="${other.base}/prefetch">
        </head><body><img src="/own.png"><img src="${other.base}/picture.png">
        <iframe src="${other.base}/frame"></iframe><a ping="${other.base}/ping" href="#">a</a>
        <script>
          navigator.sendBeacon('${other.base}/beacon', 'x');
          const settled = [
            fetch('${other.base}/fetch').catch(() => {}),
            fetch('/held').catch(() => {}),
            new Promise((done) => { try { const socket = new WebSocket('${other.base.replace('http', 'ws')}/socket'); socket.onopen = socket.onerror = socket.onclose = done; } catch { done(); } }),
            navigator.serviceWorker?.register('/sw.js').catch(() => {}),
            new Promise((done) => addEventListener('load', done)), // pictures, style sheet and frame loaded or refused
          ];
          // printed only once every request above has had its answer or its refusal
          Promise.all(settled).then(() => document.body.insertAdjacentHTML('afterbegin', '<div class="ready">Printed page</div>'));
        </script></body></html>`);
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    const printer = new ChromiumPrinter(CHROMIUM);
    try {
      const printing = printer.print([`http://127.0.0.1:${(internal.address() as { port: number }).port}/page`], '.ready', 30_000);
      printing.catch(() => {}); // awaited below; a failed check must not leave it unhandled
      // checked while the hostile page is open, so its renderer is among the processes; a print
      // that fails before the page asks says why at once
      await Promise.race([pageWaiting, printing]);
      try {
        expectSandboxedChromium();
      } finally {
        answerHeld();
      }
      const [pdf] = await printing;
      expect(pdfText(pdf!)).toContain('Printed page'); // after the page's requests to the other origin were answered or refused
      expect(other.connections).toEqual([]);
      expect(own).toContain('/own.png'); // its own origin is reached
      expect(own).not.toContain('/sw.js'); // service workers are blocked
    } finally {
      await printer.close();
      internal.close();
      other.server.close();
    }
  }, 120_000);
});
