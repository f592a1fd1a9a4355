import yauzl from 'yauzl';
import { FileRefusal } from './file-refusal.ts';

/**
 * How much a Word file asks of LibreOffice's layout, counted from its XML before it is
 * converted (in the untrusted file worker process, never on the event loop). A 11 KB file
 * holding one table of 4,000 rows took LibreOffice minutes: layout time grows faster than
 * the rows, and wide rows cost more. Measured on a busy two-core machine: a table of 1,000
 * rows took 2 s and of 2,000 rows 7 s; 1,000 cells of 10 columns 3 s, 2,000 of 20 columns
 * 10 s, 4,000 of 20 columns 21 s; 6,000 short paragraphs 13 s. The budget keeps every
 * admitted file well inside the conversion timeout; a file past it is refused at once with
 * the limits named, and the applicant can send a PDF instead.
 */
export const DOCX_BUDGET = { pages: 100, rows: 1000, cells: 1500 } as const;

/** A page of plain text is some 3,000 characters, or some 40 paragraphs (short lines). */
const CHARACTERS_PER_PAGE = 3000;
const PARAGRAPHS_PER_PAGE = 40;

export interface DocxCounts {
  /** an estimate: explicit page and section breaks, or the text's length, whichever says more */
  pages: number;
  rows: number;
  cells: number;
}

/**
 * The counts of every XML part of a (stripped) Word file, streamed part by part and chunk
 * by chunk: nothing is held but a tag being read. Elements are counted by local name
 * whatever their prefix (a hostile file binds the WordprocessingML namespace to `x:`), so a
 * DrawingML table's rows count too: counting too much refuses a rare file, too little lets
 * a slow one through. Stops reading once a budget is passed. Undefined for a damaged zip
 * (checked before this runs).
 */
export function countDocx(bytes: Uint8Array, budget: typeof DOCX_BUDGET = DOCX_BUDGET): Promise<DocxCounts | undefined> {
  return new Promise((resolve) => {
    yauzl.fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return resolve(undefined);
      const counter = new XmlCounter();
      let settled = false;
      const finish = (counts: DocxCounts | undefined) => {
        if (settled) return;
        settled = true;
        zip.close();
        resolve(counts);
      };
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!/\.xml$/i.test(entry.fileName)) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return finish(undefined);
          counter.startPart();
          stream.on('data', (chunk: Buffer) => {
            counter.read(chunk);
            if (overBudget(counter.counts(), budget)) {
              stream.destroy();
              finish(counter.counts());
            }
          });
          stream.on('error', () => finish(undefined));
          stream.on('end', () => zip.readEntry());
        });
      });
      zip.on('end', () => finish(counter.counts()));
      zip.on('error', () => finish(undefined));
      zip.readEntry();
    });
  });
}

export function overBudget(counts: DocxCounts, budget: typeof DOCX_BUDGET = DOCX_BUDGET): boolean {
  return counts.pages > budget.pages || counts.rows > budget.rows || counts.cells > budget.cells;
}

const LT = 0x3c;
const GT = 0x3e;
/** the longest start of a tag kept to read its name (and a page break's type) */
const TAG_HEAD = 200;

/**
 * Reads XML bytes (ASCII-compatible: stripDocxLinks left out every part in another
 * encoding, and every DOCTYPE) and counts start tags by local name, and text outside tags.
 */
class XmlCounter {
  private rows = 0;
  private cells = 0;
  private paragraphs = 0;
  private breaks = 0;
  private characters = 0;
  private inTag = false;
  private head = '';

  startPart(): void {
    this.inTag = false;
    this.head = '';
  }

  read(chunk: Buffer): void {
    for (let index = 0; index < chunk.length;) {
      if (!this.inTag) {
        const open = chunk.indexOf(LT, index);
        const end = open < 0 ? chunk.length : open;
        // text, but not the spaces and line ends between tags of an indented part
        for (let at = index; at < end; at++) if (chunk[at]! > 0x20) this.characters++;
        if (open < 0) return;
        this.inTag = true;
        this.head = '';
        index = open + 1;
        continue;
      }
      const close = chunk.indexOf(GT, index);
      const end = close < 0 ? chunk.length : close;
      if (this.head.length < TAG_HEAD) this.head += chunk.toString('latin1', index, Math.min(end, index + TAG_HEAD - this.head.length));
      if (close < 0) return;
      this.tag(this.head);
      this.inTag = false;
      index = close + 1;
    }
  }

  private tag(head: string): void {
    const match = /^([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(head);
    if (!match) return; // an end tag, a comment, a processing instruction
    const name = match[2]!;
    if (name === 'tr') this.rows++;
    else if (name === 'tc') this.cells++;
    else if (name === 'p') this.paragraphs++;
    else if (name === 'sectPr' || name === 'pageBreakBefore' || name === 'lastRenderedPageBreak') this.breaks++;
    else if (name === 'br' && /type\s*=\s*["']page["']/.test(head)) this.breaks++;
  }

  counts(): DocxCounts {
    const pages = Math.max(this.breaks + 1, Math.ceil(this.characters / CHARACTERS_PER_PAGE), Math.ceil(this.paragraphs / PARAGRAPHS_PER_PAGE));
    return { pages, rows: this.rows, cells: this.cells };
  }
}

/** Refuses (FileRefusal 'docx_too_long') a Word file past the budget; a damaged one is left to the checks that read it. */
export async function checkDocxBudget(bytes: Uint8Array): Promise<void> {
  const counts = await countDocx(bytes);
  if (counts && overBudget(counts)) {
    throw new FileRefusal('docx_too_long', `${counts.pages} pages, ${counts.rows} table rows, ${counts.cells} table cells`);
  }
}
