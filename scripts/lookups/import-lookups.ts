import type { Kysely } from 'kysely';
import { analyzeLookups, deleteLookupsExcept, upsertLookups, type LookupRow } from '../../src/server/db/repositories/lookup-repository.ts';
import type { Database } from '../../src/server/db/tables.ts';
import type { LookupCategory } from '../../src/server/lookups/categories.ts';
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

/** Rows per INSERT: 10 columns each, well under PostgreSQL's 65,535 parameters. */
const BATCH_SIZE = 1000;

/**
 * Loads a list into one category, in one transaction: new entries are inserted, changed
 * ones updated, the rest left alone, so loading a list twice changes nothing. With
 * `replace`, entries the list no longer has are removed (a licensed list replacing the sample).
 */
export async function importLookups(
  db: Kysely<Database>, category: LookupCategory, file: CsvFile, options: { replace?: boolean } = {},
): Promise<ImportReport> {
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

  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < rows.length; start += BATCH_SIZE) {
      const { inserted, updated } = await upsertLookups(trx, rows.slice(start, start + BATCH_SIZE));
      report.inserted += inserted;
      report.updated += updated;
    }
    if (options.replace) report.removed = await deleteLookupsExcept(trx, category, rows.map((row) => row.id));
  });
  if (report.inserted || report.updated || report.removed) await analyzeLookups(db);
  report.unchanged = rows.length - report.inserted - report.updated;
  return report;
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
