import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { applicationPdfsOfMany, convertedDocumentsOfMany } from '../db/repositories/export-repository.ts';
import type { Database } from '../db/tables.ts';
import { fingerprint, queueApplicationPdf } from '../pdf/application-pdf.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';

const SAFE_NAME = /^[a-z0-9_]{1,100}$/;
const UUID = /^[0-9a-f-]{36}$/;

export interface DocumentCopyCounts {
  /** files written this run */
  written: number;
  /** files already there with the same size (an earlier run) */
  kept: number;
  /** applications without a current PDF copy (none made yet, or made before the last change) */
  applicationPdfMissing: number;
  /** of those, the copies queued now for a server to make (the others are under way or failed) */
  applicationPdfQueued: number;
}

/** Writes a file whole or not at all; one of the same size already there is kept (a re-run writes nothing). */
async function copyOnce(storage: ObjectStorage, key: string, path: string, counts: DocumentCopyCounts): Promise<void> {
  const size = await storage.size(key);
  if (size === undefined) return;
  const present = await stat(path).catch(() => undefined);
  if (present?.size === size) {
    counts.kept++;
    return;
  }
  await writeFile(`${path}.partial`, await storage.get(key));
  await rename(`${path}.partial`, path);
  counts.written++;
}

/**
 * With --documents: each applicant's converted documents and current application PDF
 * beside the export, as documents/<applicant id>/<answer key>.pdf and application.pdf,
 * read from the server's storage (local disk or S3). A missing PDF copy is queued for a
 * server to make, so a later run finds it.
 */
export async function copyDocuments(db: Kysely<Database>, storage: ObjectStorage, ids: string[], outDir: string, counts: DocumentCopyCounts): Promise<void> {
  const [documents, pdfs] = await Promise.all([convertedDocumentsOfMany(db, ids), applicationPdfsOfMany(db, ids)]);
  const folder = async (id: string) => {
    const path = join(outDir, 'documents', id);
    await mkdir(path, { recursive: true });
    return path;
  };
  for (const row of documents) {
    if (!UUID.test(row.applicant_id) || !SAFE_NAME.test(row.answer_key)) continue;
    await copyOnce(storage, row.pdf_key!, join(await folder(row.applicant_id), `${row.answer_key}.pdf`), counts);
  }
  const current = new Map<string, string>();
  for (const row of pdfs) {
    if (row.fingerprint === await fingerprint(db, row.applicant_id)) current.set(row.applicant_id, row.pdf_key!);
  }
  for (const id of ids) {
    const key = current.get(id);
    if (!key) {
      counts.applicationPdfMissing++;
      if (await queueApplicationPdf(db, id)) counts.applicationPdfQueued++;
    } else if (UUID.test(id)) await copyOnce(storage, key, join(await folder(id), 'application.pdf'), counts);
  }
}
