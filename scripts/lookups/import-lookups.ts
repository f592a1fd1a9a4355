import type { Kysely } from 'kysely';
import type { LookupRow } from '../../src/server/db/repositories/lookup-repository.ts';
import type { Database } from '../../src/server/db/tables.ts';
import type { LookupCategory } from '../../src/server/lookups/categories.ts';
import { writeLookups, type LookupWrites } from '../../src/server/lookups/write-lookups.ts';
import type { CsvFile } from './csv-lines.ts';
import { REQUIRED_COLUMNS, toEntry } from './lookup-entries.ts';

export interface LineNote {
  line: number;
  reason: string;
}

export interface ImportReport {
  category: LookupCategory;
  read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** entries of the category that were not in the list, removed by `replace` */
  removed: number;
  skipped: LineNote[];
  rejected: LineNote[];
}

/** A list checked line by line: the rows to write, and the report so far (nothing written yet). */
export interface PreparedImport {
  report: ImportReport;
  rows: LookupRow[];
}

/**
 * Checks every line of a list for one category: the rows to write, and the lines skipped or
 * rejected with their reasons. Nothing touches the database, so the office's command can do
 * this itself and hand only the rows to a running server.
 */
export function prepareLookups(category: LookupCategory, file: CsvFile): PreparedImport {
  const missing = REQUIRED_COLUMNS[category].filter((column) => !file.header.includes(column));
  if (missing.length) throw new Error(`the file has no ${missing.join(', ')} column (a ${category} list needs ${REQUIRED_COLUMNS[category].join(', ')})`);

  const report: ImportReport = { category, read: file.lines.length, inserted: 0, updated: 0, unchanged: 0, removed: 0, skipped: [], rejected: [] };
  const rows: LookupRow[] = [];
  const firstLineOf = new Map<string, number>();
  for (const entry of file.lines) {
    if ('error' in entry) {
      report.rejected.push({ line: entry.line, reason: entry.error });
      continue;
    }
    const result = toEntry(category, entry.fields);
    if ('skipped' in result) report.skipped.push({ line: entry.line, reason: result.skipped });
    else if ('rejected' in result) report.rejected.push({ line: entry.line, reason: result.rejected });
    else if (firstLineOf.has(result.row.id)) {
      report.rejected.push({ line: entry.line, reason: `duplicate code ${result.row.id} (first on line ${firstLineOf.get(result.row.id)})` });
    } else {
      firstLineOf.set(result.row.id, entry.line);
      rows.push(result.row);
    }
  }
  return { report, rows };
}

/** The report once the rows are written. */
export function completeReport(prepared: PreparedImport, writes: LookupWrites): ImportReport {
  const { report, rows } = prepared;
  return { ...report, ...writes, unchanged: rows.length - writes.inserted - writes.updated };
}

/** Loads a list into one category (prepareLookups, then writeLookups): loading it twice changes nothing. */
export async function importLookups(
  db: Kysely<Database>, category: LookupCategory, file: CsvFile, options: { replace?: boolean } = {},
): Promise<ImportReport> {
  const prepared = prepareLookups(category, file);
  return completeReport(prepared, await writeLookups(db, category, prepared.rows, options));
}

/** The report as the import command prints it: counts, then each refused line (grouped past `maxLines`). */
export function formatReport(report: ImportReport, source: string, maxLines = 50): string {
  const loaded = report.inserted + report.updated + report.unchanged;
  const out = [
    `${report.category} from ${source}`,
    `  rows read: ${report.read}`,
    `  loaded:    ${loaded} (inserted ${report.inserted}, updated ${report.updated}, unchanged ${report.unchanged})`,
  ];
  if (report.removed) out.push(`  removed:   ${report.removed} (not in the list any more)`);
  out.push(...notes('skipped', report.skipped, maxLines), ...notes('rejected', report.rejected, maxLines));
  return out.join('\n');
}

function notes(label: string, list: LineNote[], maxLines: number): string[] {
  const out = [`  ${`${label}:`.padEnd(10)} ${list.length}`];
  if (list.length <= maxLines) return [...out, ...list.map((note) => `    line ${note.line}: ${note.reason}`)];
  const byReason = new Map<string, number>();
  for (const note of list) byReason.set(note.reason, (byReason.get(note.reason) ?? 0) + 1);
  const grouped = [...byReason].sort((a, b) => b[1] - a[1]).slice(0, maxLines);
  return [...out, ...grouped.map(([reason, count]) => `    ${count} x ${reason}`)];
}
