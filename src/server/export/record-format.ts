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
  if (Array.isArray(value)) return value.map((entry) => `${entry.status} ${entry.at}`).join('; ');
  return defused(value);
}

/** The header and record lines of one export file, in the columns' order. */
export function recordFormat(format: ExportFormat, columns: readonly ExportColumn[]) {
  if (format === 'csv') {
    return {
      extension: 'csv',
      header: stringify([columns.map((column) => column.name)], { record_delimiter: 'windows' }),
      line: (record: ExportRecord) => stringify([columns.map((column) => csvCell(column.value(record)))], { record_delimiter: 'windows' }),
    };
  }
  return {
    extension: 'jsonl',
    header: '',
    line: (record: ExportRecord) => `${JSON.stringify(Object.fromEntries(columns.map((column) => [column.name, column.value(record)])))}\n`,
  };
}
