import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import {
  answersOfMany, everyApplicationPage, fileItemsOfMany, otherStoredKeysSlice, statusHistoryOfMany, submittedPage, type ExportedApplicant,
} from '../db/repositories/export-repository.ts';
import type { Database } from '../db/tables.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import exportText from '../../../schemas/text/export.json';
import { exportedDocumentsOfMany } from './document-columns.ts';
import { copyDocuments, type DocumentCopyCounts } from './document-copies.ts';
import { dataModelKeys, exportColumns, type ExportRecord } from './export-columns.ts';
import { labelsCsv, recordFormat, type ExportFormat } from './record-format.ts';

export interface ExportOptions {
  /** ISO time: submitted (with `all`: changed) at or after it; unset: from the beginning */
  since?: string | undefined;
  /** also applications still in progress */
  all: boolean;
  format: ExportFormat;
  outDir: string;
  /** with the storage to read them from: converted documents and application PDFs beside the file */
  documents?: ObjectStorage | undefined;
  pageSize?: number;
}

export interface ExportManifest {
  file: string;
  /** the labels file beside it: each column's question label, section and page */
  labels: string;
  format: ExportFormat;
  scope: 'submitted' | 'all';
  since: string | null;
  rows: number;
  columns: number;
  /** the last submit (or change) exported */
  last_at: string | null;
  /** what the next incremental run passes as --since: a minute before last_at, so a submit committed late is not missed */
  next_since: string | null;
  /** with --documents: files beside the export, and applications without a current PDF copy */
  documents?: { files: number; application_pdf_missing: number };
}

/** A minute of overlap between runs: a submit's time is taken as its transaction starts, and it may commit a little later. */
const OVERLAP_MS = 60_000;

/** The file name says what is in it, never when it was written: the same run writes the same file. */
function fileStem(options: ExportOptions): string {
  const since = options.since ? options.since.replace(/[:.]/g, '-') : 'beginning';
  return `applications-${options.all ? 'all' : 'submitted'}-since-${since}`;
}

async function* pages(db: Kysely<Database>, options: ExportOptions): AsyncGenerator<ExportedApplicant[]> {
  const limit = options.pageSize ?? 500;
  let last: ExportedApplicant | undefined;
  for (;;) {
    const page = options.all
      ? await everyApplicationPage(db, options.since, last?.id, limit)
      : await submittedPage(db, options.since, last && { at: last.changed_at, id: last.id }, limit);
    if (page.length) yield page;
    if (page.length < limit) return;
    last = page[page.length - 1];
  }
}

/** Keys stored for anyone this cycle that the data model no longer lists. */
async function removedKeys(db: Kysely<Database>, known: string[]): Promise<string[]> {
  const found = new Set<string>();
  let after: string | undefined;
  do {
    const slice = await otherStoredKeysSlice(db, known, after, 5000);
    for (const key of slice.keys) found.add(key);
    after = slice.next;
  } while (after);
  return [...found];
}

async function recordsOf(db: Kysely<Database>, page: ExportedApplicant[], withCopies: boolean): Promise<ExportRecord[]> {
  const ids = page.map((row) => row.id);
  const [answers, statuses, documents, items] = await Promise.all([
    answersOfMany(db, ids), statusHistoryOfMany(db, ids), exportedDocumentsOfMany(db, ids, withCopies), fileItemsOfMany(db, ids),
  ]);
  const records = new Map<string, ExportRecord>(page.map((row) => [row.id, {
    id: row.id, email: row.email, language: row.language, webStatus: '', submittedAt: row.submitted_at, statusHistory: [], answers: {}, documents: documents.get(row.id) ?? {},
    fileItems: [], fileCompleteAt: row.file_complete_at,
  }]));
  for (const row of answers) records.get(row.applicant_id)!.answers[row.key] = row.value!;
  for (const row of items) records.get(row.applicant_id)!.fileItems.push(row);
  for (const row of statuses) {
    const record = records.get(row.applicant_id)!;
    record.statusHistory.push({ status: row.web_status, at: row.at });
    record.webStatus = row.web_status;
  }
  return [...records.values()];
}

/**
 * npm run export:applications: submitted applications (with `all`, every one changed since)
 * as one CSV or JSON Lines file, read a page at a time and written as it goes (memory
 * stays flat), then its labels file and its manifest (<file>.manifest.json). The file appears whole (written aside, then renamed), and
 * the same --since over the same data writes the same bytes, so a run can be repeated.
 */
export async function exportApplications(db: Kysely<Database>, options: ExportOptions): Promise<{ manifest: ExportManifest; documents: DocumentCopyCounts }> {
  await mkdir(options.outDir, { recursive: true });
  const known = dataModelKeys().map((entry) => entry.key);
  const columns = exportColumns(await removedKeys(db, [...known, ...known.map((key) => `${key}_desc`)]));
  const format = recordFormat(options.format, columns);
  const stem = fileStem(options);
  const file = `${stem}.${format.extension}`;
  const partial = join(options.outDir, `${file}.partial`);
  const out = createWriteStream(partial);
  const write = async (text: string) => {
    if (text && !out.write(text)) await once(out, 'drain');
  };
  const documents: DocumentCopyCounts = { written: 0, kept: 0, applicationPdfMissing: 0, applicationPdfQueued: 0 };
  let rows = 0;
  let lastAt: string | null = null;
  try {
    await write(format.header);
    for await (const page of pages(db, options)) {
      for (const record of await recordsOf(db, page, Boolean(options.documents))) await write(format.line(record));
      if (options.documents) await copyDocuments(db, options.documents, page.map((row) => row.id), options.outDir, documents);
      rows += page.length;
      for (const row of page) if (!lastAt || row.changed_at > lastAt) lastAt = row.changed_at;
    }
    out.end();
    await once(out, 'finish');
  } catch (error) {
    out.destroy();
    throw error;
  }
  await rename(partial, join(options.outDir, file));
  // the same for a CSV and a JSON Lines run of the same scope: either may write it
  const labels = `${stem}.labels.csv`;
  await writeWhole(join(options.outDir, labels), labelsCsv(columns, exportText.header));
  const nextSince = lastAt ? new Date(Date.parse(lastAt) - OVERLAP_MS).toISOString() : options.since ?? null;
  const manifest: ExportManifest = {
    file, labels, format: options.format, scope: options.all ? 'all' : 'submitted', since: options.since ?? null,
    rows, columns: columns.length, last_at: lastAt, next_since: nextSince,
    ...(options.documents ? { documents: { files: documents.written + documents.kept, application_pdf_missing: documents.applicationPdfMissing } } : {}),
  };
  // one per file: a CSV run and a JSON Lines run into the same folder keep each other's
  await writeWhole(join(options.outDir, `${file}.manifest.json`), `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest, documents };
}

/** A file appears whole or not at all. */
async function writeWhole(path: string, text: string): Promise<void> {
  await writeFile(`${path}.partial`, text);
  await rename(`${path}.partial`, path);
}
