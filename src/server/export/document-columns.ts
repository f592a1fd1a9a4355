import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { ITEM_ANSWER_PREFIX } from '../../shared/file-items/item-documents.ts';

/** An uploaded document as the export describes it: its file as the applicant named it, and where --documents puts its PDF copy. */
export interface ExportedDocument {
  fileName: string;
  fileSize: number;
  /** relative to the export's folder; only when the run copies documents */
  path: string | null;
}

/** Where copyDocuments writes a converted document, relative to the export's folder. */
export const documentCopyPath = (applicantId: string, answerKey: string) => `documents/${applicantId}/${answerKey}.pdf`;

/** The converted documents of these applicants (a file the converter refused is no answer). */
export async function exportedDocumentsOfMany(db: Kysely<Database>, ids: string[], withCopies: boolean): Promise<Map<string, Record<string, ExportedDocument>>> {
  const byApplicant = new Map<string, Record<string, ExportedDocument>>();
  if (!ids.length) return byApplicant;
  const rows = await db.selectFrom('documents').select(['applicant_id', 'answer_key', 'file_name', 'file_size'])
    .where('applicant_id', 'in', ids).where('status', '=', 'COMPLETED').where('pdf_key', 'is not', null)
    .where('answer_key', 'not like', `${ITEM_ANSWER_PREFIX}%`).execute(); // an item's document is no answer
  for (const row of rows) {
    const documents = byApplicant.get(row.applicant_id) ?? {};
    documents[row.answer_key] = {
      fileName: row.file_name, fileSize: Number(row.file_size), path: withCopies ? documentCopyPath(row.applicant_id, row.answer_key) : null,
    };
    byApplicant.set(row.applicant_id, documents);
  }
  return byApplicant;
}
