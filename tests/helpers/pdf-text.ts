import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The text of a PDF, as poppler's pdftotext reads it. */
export function pdfText(bytes: Uint8Array, options: { layout?: boolean } = {}): string {
  const file = join(mkdtempSync(join(tmpdir(), 'pdf-text-')), 'file.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', [...(options.layout ? ['-layout'] : []), file, '-']).toString();
}

/**
 * Text with every space and line break taken out: where a PDF wraps a line depends on the
 * installed fonts, so a long answer may come back broken anywhere, even inside a word.
 */
export function withoutWhitespace(text: string): string {
  return text.replace(/\s+/g, '');
}

/** Pictures in a PDF (poppler's pdfimages), by size. */
export function pdfImages(bytes: Uint8Array): { width: number; height: number }[] {
  const folder = mkdtempSync(join(tmpdir(), 'pdf-images-'));
  try {
    writeFileSync(join(folder, 'file.pdf'), bytes);
    const lines = execFileSync('pdfimages', ['-list', join(folder, 'file.pdf')]).toString().trim().split('\n').slice(2);
    return lines.map((line) => line.trim().split(/\s+/)).map((cells) => ({ width: Number(cells[3]), height: Number(cells[4]) }));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
