import { stringify } from 'csv-stringify/sync';
import type { CellValue, ExportColumn, ExportRecord } from './export-columns.ts';

export type ExportFormat = 'csv' | 'jsonl';

/**
 * A spreadsheet runs a cell that starts with = or @ (or + and - before anything but a
 * number) as a formula: an applicant's answer must not run on an office computer
 * (OWASP "CSV injection"). Such a cell gets a leading apostrophe in CSV; JSON Lines keep
 * every value as it is.
 */
function defused(text: string): string {
  return /^[=@\t\r]/.test(text) || /^[+-](?![\d\s().-]*$)/.test(text) ? `'${text}` : text;
}

function csvCell(value: CellValue): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map((entry) => `${entry.status} ${entry.at}`).join('; ');
  return defused(value);
}

/**
 * Excel reads a CSV without a byte-order mark in the computer's own code page, so an
 * accented name comes out as mojibake; with it, as UTF-8. CSV readers drop it (csv-parse's `bom`).
 */
export const UTF8_BOM = '\uFEFF';

const csvLine = (cells: string[]) => stringify([cells], { record_delimiter: 'windows' });

/** The header and record lines of one export file, in the columns' order. */
export function recordFormat(format: ExportFormat, columns: readonly ExportColumn[]) {
  if (format === 'csv') {
    return {
      extension: 'csv',
      header: UTF8_BOM + csvLine(columns.map((column) => column.name)),
      line: (record: ExportRecord) => csvLine(columns.map((column) => csvCell(column.value(record)))),
    };
  }
  return {
    extension: 'jsonl',
    header: '',
    line: (record: ExportRecord) => `${JSON.stringify(Object.fromEntries(columns.map((column) => [column.name, column.value(record)])))}\n`,
  };
}

/**
 * The labels file beside an export: one row per column (its name, the question's label, the
 * section and page that ask it), so an office reads what a raw key means. A file of its own,
 * not a second header row: every CSV reader and import mapping takes the first row as the
 * header and each later one as an application, and a row of labels would be read as one.
 * Labels are text, written as they are but defused like any cell.
 */
export function labelsCsv(columns: readonly ExportColumn[], header: { key: string; label: string; section: string; page: string }): string {
  return UTF8_BOM + csvLine([header.key, header.label, header.section, header.page])
    + columns.map((column) => csvLine([column.name, column.label.label, column.label.section, column.label.page].map(defused))).join('');
}
