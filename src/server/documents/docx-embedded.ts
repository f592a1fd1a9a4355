/**
 * What inside a Word file is another file LibreOffice would open as a document of its own,
 * and whether the file carries macros: both told by the parts' bytes and the package's own
 * declarations, never by a part's name (a name is the attacker's choice).
 */

/** A part as read from the zip (see docx-links.ts). */
export interface PackagePart {
  name: string;
  directory: boolean;
  data: Buffer;
}

const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP = Buffer.from('PK\x03\x04', 'latin1');
const EMPTY_ZIP = Buffer.from('PK\x05\x06', 'latin1');

/**
 * An embedded package: an OLE2 compound file (old Word, Excel, Equation Editor, "Package"
 * objects, ActiveX data) or a zip (a .docx, .xlsx, .pptx or OpenDocument file inside the
 * document). LibreOffice opens such a part as a document, with links of its own; nothing
 * read here is walked into it.
 */
export function embeddedPackageKind(data: Buffer): 'OLE2 compound file' | 'zip package' | undefined {
  if (data.subarray(0, 8).equals(OLE2)) return 'OLE2 compound file';
  if (data.subarray(0, 4).equals(ZIP) || data.subarray(0, 4).equals(EMPTY_ZIP)) return 'zip package';
  return undefined;
}

/** Relationship types that make their target an object LibreOffice loads as a document: dropped wherever they point. */
export const EMBEDDING_TYPES = /\/(oleObject|package|activeXControlBinary)$/i;

const MACRO_CONTENT_TYPES = /application\/vnd\.ms-office\.(vbaProject|vbaData)|macroEnabled/i;
const MACRO_RELATIONSHIP = /Type\s*=\s*["'][^"']*\/(vbaProject|wordVbaData|keyMapCustomizations)["']/i;
/** The stream every VBA project has, as an OLE2 directory spells its names (UTF-16). */
const VBA_STREAM = Buffer.from('_VBA_PROJECT', 'utf16le');

/**
 * True when the file carries macros: its content types declare a macro-enabled document or
 * a VBA part, a relationship points at a VBA project, or an OLE2 part holds one. A renamed
 * vbaProject.bin is found as well as one under its usual name.
 */
export function hasMacros(parts: PackagePart[]): boolean {
  return parts.some((part) => {
    if (part.directory) return false;
    if (part.name === '[Content_Types].xml') return MACRO_CONTENT_TYPES.test(part.data.toString('latin1'));
    if (/\.rels$/i.test(part.name)) return MACRO_RELATIONSHIP.test(part.data.toString('latin1'));
    return embeddedPackageKind(part.data) === 'OLE2 compound file' && part.data.includes(VBA_STREAM);
  });
}
