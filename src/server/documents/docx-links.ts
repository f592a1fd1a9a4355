import yauzl from 'yauzl';
import yazl from 'yazl';
import { EMBEDDING_TYPES, embeddedPackageKind, hasMacros } from './docx-embedded.ts';
import { oversizedPicture, recodePictures } from './docx-pictures.ts';

/**
 * A Word file made unable to reach anything before LibreOffice opens it: LibreOffice
 * fetches what a .docx links to (pictures, fields that include files or pictures, templates,
 * sub-documents, linked objects), from http:// addresses and from the server's own disk.
 * Every such reference is stripped; the rest of the file is left as it was. Pure: bytes in,
 * bytes out, nothing read or fetched.
 *
 * - Relationships (every *.rels part): those with TargetMode="External" are removed, and the
 *   attributes that pointed at them; internal ones whose target is an address or leaves the
 *   package too. Hyperlinks to http(s) and mailto stay: LibreOffice does not fetch them, and
 *   they stay clickable in the PDF (the same links the PDF cleaner keeps); other hyperlinks
 *   (file:, smb:, javascript:) are removed, their text stays.
 * - Linked pictures: r:link attributes (DrawingML), href/src on VML elements.
 * - Fields that read files or addresses (INCLUDEPICTURE, INCLUDETEXT, INCLUDE, IMPORT, LINK,
 *   DDE, DDEAUTO, DATABASE, RD): their instruction is emptied, in complex fields (w:instrText,
 *   nested fields included) and simple ones (w:fldSimple w:instr); the text they last showed stays.
 * - Elements that only exist to link: w:attachedTemplate, w:subDoc, w:altChunk (its content
 *   is another document LibreOffice would import, with links of its own), w:objectLink and
 *   o:OLEObject Type="Link", w:frameset (webSettings), w:mailMerge (a data source),
 *   c:externalData pointing outside.
 * - Pictures: only what is recognised survives. A PNG, JPEG, GIF or WebP part is decoded
 *   and written anew (docx-pictures.ts, picture-recode.ts); an SVG part, and every other part
 *   that is not markup (an SVGZ, TIFF, EMF/WMF, a font, whatever will not decode) is left
 *   out with the relationships that pointed at it. LibreOffice sniffs a picture's bytes and
 *   ignores its name and declared type, so a gzip-compressed SVG named image1.png, or an SVG
 *   hidden in a data: address, would otherwise be read with its links.
 * - In every XML part, any href, src or althref attribute (whatever its prefix) other than a
 *   #fragment, and CSS url() other than #fragments and @import: a part LibreOffice is made to
 *   read as a picture is sniffed as SVG whatever its root element.
 * - Parts LibreOffice would read as XML that cannot be read here the same way (UTF-16 or other
 *   encodings, a DOCTYPE, malformed) are left out: such a part never comes from Word.
 * - Embedded objects: every part that is itself a package (an OLE2 compound file, or a zip:
 *   a .docx, .xlsx or OpenDocument file inside the document) is left out, with the
 *   relationships to it and the o:OLEObject, c:externalData and r:id references that used
 *   them. LibreOffice would open such a package as a document of its own and follow its links,
 *   which were never read here. What the object showed stays: Word keeps a picture of it
 *   beside the object (v:imagedata), and a chart keeps the numbers it last showed.
 * - Macros (told by content types, relationships and VBA streams, not by names) and pictures
 *   past the image budget (docx-pictures.ts) are refused.
 *
 * The zip is written anew from what was read, so LibreOffice sees exactly the entries that
 * were checked. Refused only when the zip itself cannot be read within the limits.
 */

export interface DocxLinkLimits {
  maxEntries: number;
  maxInflatedBytes: number;
}

export const DOCX_LINK_LIMITS: DocxLinkLimits = { maxEntries: 1000, maxInflatedBytes: 50 * 1024 * 1024 };

export type DocxLinkRefusal = 'corrupt' | 'too_many_entries' | 'too_large' | 'unsafe_path' | 'macros' | 'picture_too_large';

/** The cleaned file and what was taken out of it (for the log), or why it was refused (and, for the log, what). */
export type DocxLinkResult = { bytes: Uint8Array; removed: string[] } | { refused: DocxLinkRefusal; detail?: string };

export async function stripDocxLinks(bytes: Uint8Array, limits: DocxLinkLimits = DOCX_LINK_LIMITS): Promise<DocxLinkResult> {
  const read = await readZip(bytes, limits);
  if ('refused' in read) return read;
  if (hasMacros(read.entries)) return { refused: 'macros' };
  const picture = oversizedPicture(read.entries);
  if (picture) return { refused: 'picture_too_large', detail: picture };
  const removed: string[] = [];
  const parts = new Map<string, string>(); // XML parts as latin1 text: markup is ASCII, bytes are kept as they are
  const leftOut = new Map<string, LeftOut>(); // parts left out, by their lower-case names: what pointed at them goes too
  const binary = new Set<Entry>();
  for (const entry of read.entries) {
    if (entry.directory) continue;
    const packageKind = embeddedPackageKind(entry.data);
    if (packageKind) {
      entry.drop = true;
      leftOut.set(entry.name.toLowerCase(), 'embedded object');
      removed.push(`${entry.name}: embedded object (${packageKind})`);
      continue;
    }
    const kind = xmlKind(entry.data);
    if (kind === 'foreign') {
      entry.drop = true;
      removed.push(`${entry.name}: XML in an encoding Word does not write`);
    } else if (kind === 'xml') {
      const text = entry.data.toString('latin1');
      if (rootName(text) === 'svg') {
        entry.drop = true;
        leftOut.set(entry.name.toLowerCase(), 'picture');
        removed.push(`${entry.name}: SVG picture`);
      } else {
        parts.set(entry.name, text);
      }
    } else {
      binary.add(entry);
    }
  }
  for (const name of (await recodePictures(read.entries, (part) => binary.has(part as Entry))).leftOut) {
    leftOut.set(name.toLowerCase(), 'picture');
    removed.push(`${name}: not a picture that could be decoded as PNG, JPEG, GIF or WebP`);
  }
  // relationships first: what they lose, the parts they belong to must stop pointing at
  const dropped = new Map<string, Set<string>>();
  for (const entry of read.entries) {
    const text = parts.get(entry.name);
    if (text === undefined || !isRelationships(text)) continue;
    const result = safely(() => cleanRelationships(entry.name, text, leftOut));
    if (!result) {
      entry.drop = true;
      removed.push(`${entry.name}: unreadable XML`);
      continue;
    }
    const owner = ownerOf(entry.name);
    if (owner !== undefined) dropped.set(owner.toLowerCase(), result.dropped);
    if (result.text !== text) entry.data = Buffer.from(result.text, 'latin1');
    removed.push(...result.removed);
    parts.delete(entry.name);
  }
  for (const entry of read.entries) {
    const text = parts.get(entry.name);
    if (text === undefined) continue;
    const result = safely(() => cleanPart(entry.name, text, dropped.get(entry.name.toLowerCase()) ?? new Set()));
    if (!result) {
      entry.drop = true;
      removed.push(`${entry.name}: unreadable XML`);
      continue;
    }
    if (result.text !== text) entry.data = Buffer.from(result.text, 'latin1');
    removed.push(...result.removed);
  }
  const written = await writeZip(read.entries.filter((entry) => !entry.drop));
  return written ? { bytes: written, removed } : { refused: 'corrupt' };
}

// ---------------------------------------------------------------------------------------
// The zip

interface Entry {
  name: string;
  directory: boolean;
  date: Date;
  data: Buffer;
  drop?: boolean;
}

/** Every entry, inflated, within the limits (the sizes a zip declares are checked as it inflates). */
function readZip(bytes: Uint8Array, limits: DocxLinkLimits): Promise<{ entries: Entry[] } | { refused: DocxLinkRefusal }> {
  return new Promise((resolve) => {
    yauzl.fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return resolve({ refused: 'corrupt' });
      const entries: Entry[] = [];
      const names = new Set<string>();
      let inflated = 0;
      let settled = false;
      const finish = (result: { entries: Entry[] } | { refused: DocxLinkRefusal }) => {
        if (settled) return;
        settled = true;
        zip.close();
        resolve(result);
      };
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entries.length >= limits.maxEntries) return finish({ refused: 'too_many_entries' });
        const name = entry.fileName;
        if (name.startsWith('/') || /^[a-z]:/i.test(name) || name.includes('\\') || name.split('/').includes('..')) return finish({ refused: 'unsafe_path' });
        // two entries of one name (parts' names ignore case): which one LibreOffice reads is its choice, not ours
        if (names.has(name.toLowerCase())) return finish({ refused: 'corrupt' });
        names.add(name.toLowerCase());
        const date = entry.getLastModDate();
        if (name.endsWith('/')) {
          entries.push({ name, directory: true, date, data: Buffer.alloc(0) });
          return zip.readEntry();
        }
        if (inflated + entry.uncompressedSize > limits.maxInflatedBytes) return finish({ refused: 'too_large' });
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return finish({ refused: 'corrupt' });
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => {
            inflated += chunk.length;
            if (inflated > limits.maxInflatedBytes) {
              stream.destroy();
              return finish({ refused: 'too_large' });
            }
            chunks.push(chunk);
          });
          stream.on('error', () => finish({ refused: 'corrupt' }));
          stream.on('end', () => {
            entries.push({ name, directory: false, date, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => finish({ entries }));
      zip.on('error', (zipError: Error) => finish({ refused: /path|fileName/i.test(zipError.message) ? 'unsafe_path' : 'corrupt' }));
      zip.readEntry();
    });
  });
}

function writeZip(entries: Entry[]): Promise<Uint8Array | undefined> {
  return new Promise((resolve) => {
    const zip = new yazl.ZipFile();
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    zip.outputStream.on('error', () => resolve(undefined));
    try {
      for (const entry of entries) {
        if (entry.directory) zip.addEmptyDirectory(entry.name, { mtime: entry.date });
        else zip.addBuffer(entry.data, entry.name, { mtime: entry.date, compress: true });
      }
      zip.end();
    } catch {
      resolve(undefined);
    }
  });
}

/**
 * 'xml': what LibreOffice would parse as XML and this module can read (ASCII-compatible);
 * 'foreign': XML it could parse but not in such an encoding (UTF-16, UTF-32, EBCDIC); 'other': not XML.
 */
function xmlKind(data: Buffer): 'xml' | 'foreign' | 'other' {
  const [a, b, c, d] = [data[0], data[1], data[2], data[3]];
  if ((a === 0xfe && b === 0xff) || (a === 0xff && b === 0xfe) || (a === 0 && b === 0 && c === 0xfe && d === 0xff)) return 'foreign';
  if ((a === 0 && (b === 0x3c || (b === 0 && c === 0))) || (a === 0x3c && b === 0) || (a === 0x4c && b === 0x6f && c === 0xa7 && d === 0x94)) return 'foreign';
  let at = a === 0xef && b === 0xbb && c === 0xbf ? 3 : 0;
  while (at < data.length && (data[at] === 0x20 || data[at] === 0x09 || data[at] === 0x0a || data[at] === 0x0d)) at++;
  return data[at] === 0x3c ? 'xml' : 'other';
}

/** The part a relationships part belongs to: word/_rels/document.xml.rels → word/document.xml; _rels/.rels → '' (the package). */
function ownerOf(relsName: string): string | undefined {
  const match = /^(.*?)_rels\/([^/]*)\.rels$/i.exec(relsName);
  return match ? `${match[1]}${match[2]}` : undefined;
}

function safely<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch (error) {
    if (error instanceof UnreadableXml) return undefined;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------
// XML, read as LibreOffice's parser would, to the extent needed: tags, attributes, text,
// namespaces. Anything it cannot read the same way throws UnreadableXml (the part is dropped).

class UnreadableXml extends Error {}

interface Attribute {
  name: string;
  /** From the whitespace before the name to the closing quote: removing this span removes the attribute. */
  start: number;
  end: number;
  valueStart: number;
  valueEnd: number;
  value: string;
}

interface XmlVisitor {
  open(name: string, attributes: Attribute[], start: number, end: number, selfClosing: boolean): void;
  close(name: string, start: number, end: number): void;
  text(value: string): void;
}

const MAX_DEPTH = 10_000;
const ASCII_ENCODINGS = /^(utf-?8|us-ascii|ascii|iso-8859-\d+|iso_8859-\d+|latin-?1|windows-125\d|cp125\d)$/i;

function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (_whole, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[entity]!;
  });
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')
    .replace(/[^\x00-\xff]/gu, (char) => `&#x${char.codePointAt(0)!.toString(16)};`);
}

const isSpace = (char: string | undefined) => char === ' ' || char === '\n' || char === '\r' || char === '\t';

function scanXml(s: string, visitor: XmlVisitor): void {
  if (s.includes('\0')) throw new UnreadableXml();
  let at = 0;
  const elements: string[] = []; // names of the elements open, to match their end tags
  const text = (from: number, to: number) => {
    if (to > from) visitor.text(decodeEntities(s.slice(from, to)));
  };
  while (at < s.length) {
    const open = s.indexOf('<', at);
    if (open < 0) {
      text(at, s.length);
      break;
    }
    text(at, open);
    if (s.startsWith('<!--', open)) {
      const end = s.indexOf('-->', open + 4);
      if (end < 0) throw new UnreadableXml();
      at = end + 3;
    } else if (s.startsWith('<![CDATA[', open)) {
      const end = s.indexOf(']]>', open + 9);
      if (end < 0) throw new UnreadableXml();
      visitor.text(s.slice(open + 9, end));
      at = end + 3;
    } else if (s.startsWith('<!', open)) {
      throw new UnreadableXml(); // a DOCTYPE: entities, external ones too; never in a Word file
    } else if (s.startsWith('<?', open)) {
      const end = s.indexOf('?>', open + 2);
      if (end < 0) throw new UnreadableXml();
      const declaration = /^<\?xml\s[^]*?encoding\s*=\s*["']([^"']*)["']/.exec(s.slice(open, end));
      if (declaration && !ASCII_ENCODINGS.test(declaration[1]!)) throw new UnreadableXml();
      at = end + 2;
    } else if (s[open + 1] === '/') {
      const end = s.indexOf('>', open + 2);
      if (end < 0) throw new UnreadableXml();
      const name = s.slice(open + 2, end).trim();
      if (elements.pop() !== name) throw new UnreadableXml();
      visitor.close(name, open, end + 1);
      at = end + 1;
    } else {
      let cursor = open + 1;
      while (cursor < s.length && !isSpace(s[cursor]) && s[cursor] !== '>' && s[cursor] !== '/') cursor++;
      const name = s.slice(open + 1, cursor);
      if (!name) throw new UnreadableXml();
      const attributes: Attribute[] = [];
      let selfClosing = false;
      for (;;) {
        const before = cursor;
        while (isSpace(s[cursor])) cursor++;
        if (s[cursor] === '>') {
          cursor++;
          break;
        }
        if (s[cursor] === '/' && s[cursor + 1] === '>') {
          cursor += 2;
          selfClosing = true;
          break;
        }
        if (cursor === before || cursor >= s.length) throw new UnreadableXml();
        const nameStart = cursor;
        while (cursor < s.length && !isSpace(s[cursor]) && s[cursor] !== '=' && s[cursor] !== '>' && s[cursor] !== '/') cursor++;
        const attributeName = s.slice(nameStart, cursor);
        while (isSpace(s[cursor])) cursor++;
        if (!attributeName || s[cursor] !== '=') throw new UnreadableXml();
        cursor++;
        while (isSpace(s[cursor])) cursor++;
        const quote = s[cursor];
        if (quote !== '"' && quote !== "'") throw new UnreadableXml();
        const valueEnd = s.indexOf(quote, cursor + 1);
        if (valueEnd < 0 || s.slice(cursor + 1, valueEnd).includes('<')) throw new UnreadableXml();
        attributes.push({ name: attributeName, start: before, end: valueEnd + 1, valueStart: cursor + 1, valueEnd, value: decodeEntities(s.slice(cursor + 1, valueEnd)) });
        cursor = valueEnd + 1;
      }
      if (!selfClosing && elements.push(name) > MAX_DEPTH) throw new UnreadableXml();
      visitor.open(name, attributes, open, cursor, selfClosing);
      at = cursor;
    }
  }
  if (elements.length) throw new UnreadableXml();
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function applyEdits(s: string, edits: Edit[]): string {
  if (!edits.length) return s;
  const sorted = [...edits].sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (const edit of sorted) {
    if (edit.start < at) continue; // inside an element already removed
    out += s.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + s.slice(at);
}

const NS = {
  w: ['http://schemas.openxmlformats.org/wordprocessingml/2006/main', 'http://purl.oclc.org/ooxml/wordprocessingml/main'],
  r: ['http://schemas.openxmlformats.org/officeDocument/2006/relationships', 'http://purl.oclc.org/ooxml/officeDocument/relationships'],
  c: ['http://schemas.openxmlformats.org/drawingml/2006/chart', 'http://purl.oclc.org/ooxml/drawingml/chart'],
  v: ['urn:schemas-microsoft-com:vml'],
  o: ['urn:schemas-microsoft-com:office:office'],
  xlink: ['http://www.w3.org/1999/xlink'],
};
type Space = keyof typeof NS;

/** Element and attribute names resolved to namespaces, scope by scope. */
class Namespaces {
  private readonly scopes: Map<string, string>[] = [new Map([['xml', 'http://www.w3.org/XML/1998/namespace']])];

  enter(attributes: Attribute[]): void {
    const declared = attributes.filter((attribute) => attribute.name === 'xmlns' || attribute.name.startsWith('xmlns:'));
    const scope = new Map(this.scopes.at(-1)!);
    for (const attribute of declared) scope.set(attribute.name === 'xmlns' ? '' : attribute.name.slice(6), attribute.value.trim());
    this.scopes.push(scope);
  }

  leave(): void {
    if (this.scopes.length > 1) this.scopes.pop();
  }

  /** Whether a qualified name is `local` in namespace `space`; an unbound prefix counts as its usual meaning (w:, r:, v:, o:, c:). */
  is(qualified: string, space: Space, local?: string, attribute = false): boolean {
    const colon = qualified.indexOf(':');
    const prefix = colon < 0 ? '' : qualified.slice(0, colon);
    if (local !== undefined && qualified.slice(colon + 1) !== local) return false;
    if (colon < 0 && attribute) return false; // unprefixed attributes are in no namespace
    const uri = this.scopes.at(-1)!.get(prefix);
    return uri === undefined ? prefix === space : NS[space].includes(uri);
  }
}

const localName = (qualified: string) => qualified.slice(qualified.indexOf(':') + 1);

// ---------------------------------------------------------------------------------------
// Relationships

/** Whether the root element is Relationships. */
const isRelationships = (text: string) => rootName(text) === 'Relationships';

/** The local name of the root element (read as a part would be: a comment cannot pass for it), if it can be read. */
function rootName(text: string): string | undefined {
  let root: string | undefined;
  try {
    scanXml(text, {
      open(element) {
        root = element;
        throw new UnreadableXml();
      },
      close() {},
      text() {},
    });
  } catch (error) {
    if (!(error instanceof UnreadableXml)) throw error;
  }
  return root === undefined ? undefined : localName(root);
}

const HYPERLINK_KEPT = /^(https?:|mailto:)/i;
/** Relationships whose elements are removed in any case (altChunk, subDoc, attachedTemplate, frame): dropped wherever they point. */
const LINK_ONLY_TYPES = /\/(aFChunk|subDocument|attachedTemplate|frame)$/i;

/** Where an internal target lands in the package, or undefined if it is an address or leaves the package. */
function insidePackage(relsName: string, target: string): string | undefined {
  let path = target.trim();
  try {
    path = decodeURIComponent(path);
  } catch {
    // as written
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//') || path.includes('\\')) return undefined;
  const base = /^(.*?)_rels\/[^/]*$/i.exec(relsName)?.[1] ?? '';
  const segments = (path.startsWith('/') ? path : base + path).split('/');
  const resolved: string[] = [];
  for (const segment of segments) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (!resolved.length) return undefined;
      resolved.pop();
    } else {
      resolved.push(segment);
    }
  }
  return resolved.join('/');
}

/** Why a part was left out: an embedded package (a document of its own), or a picture that is not one we decoded. */
type LeftOut = 'embedded object' | 'picture';

function cleanRelationships(name: string, text: string, leftOut: Map<string, LeftOut>): { text: string; dropped: Set<string>; removed: string[] } {
  const edits: Edit[] = [];
  const dropped = new Set<string>();
  const removed: string[] = [];
  const open: { start: number; drop: boolean }[] = [];
  scanXml(text, {
    open(element, attributes, start, end, selfClosing) {
      let drop = false;
      if (localName(element) === 'Relationship') { // in whatever namespace: dropping one too many is harmless
        const value = (key: string) => attributes.find((attribute) => attribute.name === key)?.value ?? '';
        const type = value('Type');
        const target = value('Target');
        const mode = value('TargetMode').trim().toLowerCase();
        const kind = type.slice(type.lastIndexOf('/') + 1) || 'unknown';
        const inside = insidePackage(name, target);
        const gone = inside === undefined ? undefined : leftOut.get(inside.toLowerCase());
        const toObject = EMBEDDING_TYPES.test(type) || gone === 'embedded object';
        if (/\/hyperlink$/i.test(type)) drop = !HYPERLINK_KEPT.test(target.trim());
        else drop = (mode !== '' && mode !== 'internal') || LINK_ONLY_TYPES.test(type) || inside === undefined || toObject || gone !== undefined;
        if (drop) {
          dropped.add(value('Id'));
          removed.push(`${name}: ${mode === 'external' ? 'external' : toObject ? 'embedded object' : gone ? 'left-out picture' : 'linking'} ${kind} relationship`);
        }
      }
      if (selfClosing) {
        if (drop) edits.push({ start, end, text: '' });
      } else {
        open.push({ start, drop });
      }
    },
    close(_element, _start, end) {
      const element = open.pop();
      if (element?.drop) edits.push({ start: element.start, end, text: '' });
    },
    text() {},
  });
  return { text: applyEdits(text, edits), dropped, removed };
}

// ---------------------------------------------------------------------------------------
// Parts: documents, headers, settings, drawings, charts, SVG pictures...

const LINKING_FIELD = /^[^A-Za-z]*(INCLUDEPICTURE|INCLUDETEXT|INCLUDE|IMPORT|LINK|DDEAUTO|DDE|DATABASE|RD)(?![A-Za-z0-9_])/i;

/** Word elements that exist only to link to something outside: removed with their content. */
const LINK_ONLY = new Map([
  ['attachedTemplate', 'attached template'], ['subDoc', 'sub-document'], ['altChunk', 'imported document (altChunk)'],
  ['objectLink', 'linked object'], ['frameset', 'frameset'], ['mailMerge', 'mail merge data source'], ['attachedSchema', 'attached schema'],
]);

/** A reference within the same part: the only kind an href, src or url() may keep (data: addresses hide whole pictures). */
const fragmentOnly = (value: string) => /^\s*#/.test(value);

function cleanCss(css: string): string {
  return css.replace(/@import[^;]*;?/gi, '').replace(/url\(\s*(['"]?)([^)]*?)\1\s*\)/gi, (whole, _quote, target: string) => (fragmentOnly(target) ? whole : 'none'));
}

interface Field {
  phase: 'instruction' | 'result';
  instruction: string;
  /** Every text of its instruction, nested fields' included: emptied when the field links. */
  spans: { start: number; end: number }[];
}

function cleanPart(name: string, text: string, dropped: Set<string>): { text: string; removed: string[] } {
  const edits: Edit[] = [];
  const removed = new Set<string>();
  const namespaces = new Namespaces();
  const fields: Field[] = [];
  let removing = -1; // depth of the element being removed
  const stack: { start: number; remove: boolean; collect?: 'instruction' | 'result' | 'style'; texts: string[]; contentStart: number }[] = [];

  const empty = (span: { start: number; end: number }) => edits.push({ ...span, text: '' });
  const instructionText = (value: string, span: { start: number; end: number }, kind: 'instruction' | 'result') => {
    if (kind === 'instruction' && LINKING_FIELD.test(value)) {
      empty(span); // whatever field it belongs to
      removed.add(`${name}: ${LINKING_FIELD.exec(value)![1]!.toUpperCase()} field`);
    }
    const owner = fields.findLast((field) => field.phase === 'instruction');
    if (owner) owner.instruction += value;
    for (const field of fields) if (field.phase === 'instruction') field.spans.push(span);
  };
  const settle = (field: Field) => {
    const match = LINKING_FIELD.exec(field.instruction);
    if (!match) return;
    field.spans.forEach(empty);
    removed.add(`${name}: ${match[1]!.toUpperCase()} field`);
  };

  scanXml(text, {
    open(element, attributes, start, end, selfClosing) {
      namespaces.enter(attributes);
      const inside = removing >= 0;
      let remove = false;
      let collect: 'instruction' | 'result' | 'style' | undefined;
      if (!inside) {
        const attribute = (space: Space, local: string) => attributes.find((each) => namespaces.is(each.name, space, local, true));
        const relationId = attribute('r', 'id')?.value;
        const local = localName(element);
        if (namespaces.is(element, 'w') && LINK_ONLY.has(local)) {
          remove = true;
          removed.add(`${name}: ${LINK_ONLY.get(local)}`);
        } else if (namespaces.is(element, 'o', 'OLEObject') && (attributes.find((each) => each.name === 'Type')?.value.trim() === 'Link' || (relationId !== undefined && dropped.has(relationId)))) {
          remove = true;
          removed.add(`${name}: linked OLE object`);
        } else if (namespaces.is(element, 'c', 'externalData') && relationId !== undefined && dropped.has(relationId)) {
          remove = true;
          removed.add(`${name}: external chart data`);
        }
        if (!remove) {
          const vml = namespaces.is(element, 'v') || namespaces.is(element, 'o');
          for (const each of attributes) {
            const own = localName(each.name);
            if (namespaces.is(each.name, 'r', undefined, true) && (own === 'link' || dropped.has(each.value))) {
              removed.add(`${name}: ${own === 'link' ? 'linked picture' : 'reference to a removed relationship'}`);
            } else if (namespaces.is(each.name, 'o', 'relid', true) && dropped.has(each.value)) {
              removed.add(`${name}: reference to a removed relationship`);
            } else if ((vml || namespaces.is(each.name, 'o', undefined, true)) && ['href', 'althref', 'src'].includes(own) && !each.name.startsWith('xmlns')) {
              removed.add(`${name}: linked picture (VML)`);
            } else if (['href', 'src', 'althref'].includes(own) && !each.name.startsWith('xmlns') && !fragmentOnly(each.value)) {
              // whatever its prefix: LibreOffice's SVG reader matches "xlink:href" by its letters, not its namespace
              removed.add(`${name}: link (${each.name})`);
            } else {
              if (own === 'style') {
                const css = cleanCss(each.value);
                if (css !== each.value) {
                  edits.push({ start: each.valueStart, end: each.valueEnd, text: escapeAttribute(css) });
                  removed.add(`${name}: style link`);
                }
              }
              continue;
            }
            edits.push({ start: each.start, end: each.end, text: '' });
          }
          if (namespaces.is(element, 'w', 'fldSimple')) {
            const instruction = attribute('w', 'instr');
            const match = instruction && LINKING_FIELD.exec(instruction.value);
            if (match) {
              edits.push({ start: instruction.valueStart, end: instruction.valueEnd, text: '' });
              removed.add(`${name}: ${match[1]!.toUpperCase()} field`);
            }
          } else if (namespaces.is(element, 'w', 'fldChar')) {
            const type = attribute('w', 'fldCharType')?.value.trim();
            if (type === 'begin') fields.push({ phase: 'instruction', instruction: '', spans: [] });
            else if (type === 'separate' && fields.length && fields.at(-1)!.phase === 'instruction') {
              fields.at(-1)!.phase = 'result';
              settle(fields.at(-1)!);
            } else if (type === 'end' && fields.length) {
              const field = fields.pop()!;
              if (field.phase === 'instruction') settle(field);
            }
          } else if (namespaces.is(element, 'w') && (local === 'instrText' || local === 'delInstrText')) {
            collect = 'instruction';
          } else if (namespaces.is(element, 'w') && (local === 't' || local === 'delText')) {
            collect = 'result';
          } else if (local === 'style') {
            collect = 'style';
          }
        }
      }
      if (selfClosing) {
        namespaces.leave();
        if (remove) edits.push({ start, end, text: '' });
        return;
      }
      if (remove) removing = stack.length;
      stack.push({ start, remove, collect, texts: [], contentStart: end });
    },
    close(_element, start, end) {
      namespaces.leave();
      const element = stack.pop();
      if (!element) throw new UnreadableXml();
      if (element.remove) {
        edits.push({ start: element.start, end, text: '' });
        removing = -1;
      }
      if (!element.collect) return;
      const value = element.texts.join('');
      const span = { start: element.contentStart, end: start };
      if (element.collect === 'style') {
        const css = cleanCss(value);
        if (css !== value) {
          edits.push({ ...span, text: css.replace(/&/g, '&amp;').replace(/</g, '&lt;') });
          removed.add(`${name}: style link`);
        }
      } else {
        instructionText(value, span, element.collect);
      }
    },
    text(value) {
      const element = stack.at(-1);
      if (element?.collect) element.texts.push(value);
    },
  });
  fields.filter((field) => field.phase === 'instruction').forEach(settle); // fields never closed
  return { text: applyEdits(text, edits), removed: [...removed] };
}
