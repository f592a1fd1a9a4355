import { parse } from 'csv-parse/sync';

/** One data line of a CSV file: its fields by (lower-case) header name, or why it could not be read. */
export type CsvLine =
  | { line: number; fields: Record<string, string> }
  | { line: number; error: string };

export interface CsvFile {
  header: string[];
  lines: CsvLine[];
}

/**
 * Reads a look-up list: a header line, then one entry per line. Each line is parsed on its
 * own, so a broken line (an unclosed quote, a missing field) is reported with its number and
 * cannot swallow the lines after it. Quoted fields may hold commas, not line breaks.
 */
export function readCsv(text: string): CsvFile {
  const rawLines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const headerFields = parseLine(rawLines[0] ?? '');
  const header = Array.isArray(headerFields) ? headerFields.map((name) => name.trim().toLowerCase()) : [];
  const lines: CsvLine[] = [];
  rawLines.slice(1).forEach((raw, index) => {
    const line = index + 2;
    if (raw.trim() === '') return;
    const fields = parseLine(raw);
    if (!Array.isArray(fields)) return lines.push({ line, error: fields.error });
    if (fields.length !== header.length) {
      return lines.push({ line, error: `${fields.length} fields where the header has ${header.length}` });
    }
    lines.push({ line, fields: Object.fromEntries(header.map((name, column) => [name, fields[column]!.trim()])) });
  });
  return { header, lines };
}

function parseLine(raw: string): string[] | { error: string } {
  try {
    const records = parse(raw) as string[][];
    return records[0] ?? [];
  } catch (error) {
    return { error: `not valid CSV (${(error as Error).message.replace(/ at line \d+.*$/, '').toLowerCase()})` };
  }
}
