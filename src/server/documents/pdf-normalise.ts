import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFStream, PDFString, PDFHexString, type PDFObject } from '@cantoo/pdf-lib';
import { loadPdfWithinBudget } from './pdf-inflate-budget.ts';

/** Annotations that only show something; others (file attachments, sound, movies, screens, 3D, rich media) are dropped. */
const SHOWN_ANNOTATIONS = new Set([
  'Link', 'Text', 'FreeText', 'Line', 'Square', 'Circle', 'Polygon', 'PolyLine', 'Highlight', 'Underline',
  'Squiggly', 'StrikeOut', 'Stamp', 'Caret', 'Ink', 'Popup', 'Widget',
]);
const SAFE_ADDRESS = /^(https?:|mailto:)/i;
/** Keys that act (scripts, open actions, chained actions) or carry files (embedded files, XFA forms). */
const ACTIVE_KEYS = ['AA', 'JS', 'JavaScript', 'OpenAction', 'Next', 'EmbeddedFiles', 'EF', 'XFA'];
/**
 * Keys that make a reader fetch another file: a reference XObject's /Ref (a page of another
 * PDF), OPI's /OPI (a high-resolution picture elsewhere), an image's /Alternates.
 */
const EXTERNAL_KEYS = ['Ref', 'OPI', 'Alternates'];
/** On a stream's own dictionary: its data kept in another file (/F, with its filters). Elsewhere /F means other things. */
const EXTERNAL_STREAM_KEYS = ['F', 'FFilter', 'FDecodeParms'];

const name = (value: PDFObject | undefined) => (value instanceof PDFName ? value.decodeText() : undefined);
const text = (value: PDFObject | undefined) => (value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined);

/** A link's action is kept only when it goes to a page of the file or to a web or mail address, and triggers nothing after. */
function isSafeAction(action: PDFDict): boolean {
  const kind = name(action.get(PDFName.of('S')));
  if (kind === 'GoTo') return true;
  return kind === 'URI' && SAFE_ADDRESS.test((text(action.get(PDFName.of('URI'))) ?? '').trim());
}

/**
 * Removes, from one object and every object inside it, what could act: additional actions
 * (/AA: page open and close, form keystroke, format, validate), actions other than a safe
 * link, the actions chained after a link (/Next), annotations that carry files or media,
 * and references to files outside (/Ref, /OPI, external stream data), wherever they sit:
 * in the dictionaries of streams too (pictures and forms drawn on the page, their own
 * resources). A stream's bytes are drawing, pictures or fonts, and are not read.
 */
function scrub(object: PDFObject | undefined, resolve: (ref: PDFRef) => PDFObject | undefined, seen: Set<PDFObject>): void {
  const value = object instanceof PDFRef ? resolve(object) : object;
  if (!value || seen.has(value)) return;
  seen.add(value);
  if (value instanceof PDFArray) {
    for (const item of value.asArray()) scrub(item, resolve, seen);
    return;
  }
  if (value instanceof PDFStream) {
    for (const key of EXTERNAL_STREAM_KEYS) value.dict.delete(PDFName.of(key));
    scrub(value.dict, resolve, seen);
    return;
  }
  if (!(value instanceof PDFDict)) return;
  for (const key of [...ACTIVE_KEYS, ...EXTERNAL_KEYS]) value.delete(PDFName.of(key));
  const action = value.get(PDFName.of('A'));
  const resolvedAction = action instanceof PDFRef ? resolve(action) : action;
  if (resolvedAction instanceof PDFDict && !isSafeAction(resolvedAction)) value.delete(PDFName.of('A'));
  const annotations = value.get(PDFName.of('Annots'));
  const list = annotations instanceof PDFRef ? resolve(annotations) : annotations;
  if (list instanceof PDFArray) {
    for (let index = list.size() - 1; index >= 0; index--) {
      const item = list.get(index);
      const annotation = item instanceof PDFRef ? resolve(item) : item;
      const subtype = annotation instanceof PDFDict ? name(annotation.get(PDFName.of('Subtype'))) : undefined;
      if (!subtype || !SHOWN_ANNOTATIONS.has(subtype)) list.remove(index);
    }
  }
  for (const [key, entry] of value.entries()) {
    if (key.decodeText() === 'Parent' && name(value.get(PDFName.of('Type'))) === 'Page') continue; // the page tree, not content
    scrub(entry, resolve, seen);
  }
}

/**
 * An uploaded PDF made anew: loaded by pdf-lib within the decompression budget (what
 * cannot be parsed, or unpacks to too much, is refused), its pages cleaned of everything
 * that could act (see scrub) and copied into a new document. Only what the pages show
 * travels: the catalog's open action, document JavaScript, embedded files, XFA and other
 * forms, bookmarks, and any object no page refers to (an HTML page hidden in a polyglot,
 * for one) stay behind.
 */
export async function normalisePdf(bytes: Uint8Array): Promise<Uint8Array> {
  const source = await loadPdfWithinBudget(bytes);
  const resolve = (ref: PDFRef) => source.context.lookup(ref);
  const seen = new Set<PDFObject>();
  for (const page of source.getPages()) scrub(page.node, resolve, seen);
  const clean = await PDFDocument.create({ updateMetadata: false });
  for (const page of await clean.copyPages(source, source.getPageIndices())) clean.addPage(page);
  return clean.save({ useObjectStreams: false, objectsPerTick: Number.POSITIVE_INFINITY });
}

export function isEncryptionError(error: unknown): boolean {
  return error instanceof Error && /encrypt/i.test(error.message);
}
