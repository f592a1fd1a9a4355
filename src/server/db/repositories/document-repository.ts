import type { Kysely, Selectable } from 'kysely';
import { ITEM_ANSWER_PREFIX } from '../../../shared/file-items/item-documents.ts';
import type { ConversionStatus, Database, DocumentsTable } from '../tables.ts';

const columns = ['answer_key', 'file_key', 'file_name', 'file_size', 'status', 'message', 'pdf_key'] as const;

export type DocumentRow = Pick<Selectable<DocumentsTable>, (typeof columns)[number]>;

export function findDocument(db: Kysely<Database>, applicantId: string, answerKey: string): Promise<DocumentRow | undefined> {
  return db.selectFrom('documents').select(columns).where('applicant_id', '=', applicantId).where('answer_key', '=', answerKey).executeTakeFirst();
}

/** The documents of the form's questions (an application file item's document is no answer: item-documents.ts). */
export function documentsOf(db: Kysely<Database>, applicantId: string): Promise<DocumentRow[]> {
  return db.selectFrom('documents').select(columns).where('applicant_id', '=', applicantId)
    .where('answer_key', 'not like', `${ITEM_ANSWER_PREFIX}%`).orderBy('answer_key').execute();
}

/** Every document of an applicant, the application file's items' too: what their storage quota counts. */
export function allDocumentsOf(db: Kysely<Database>, applicantId: string): Promise<DocumentRow[]> {
  return db.selectFrom('documents').select(columns).where('applicant_id', '=', applicantId).orderBy('answer_key').execute();
}

/** A new upload replaces the document of that question; returns the one it replaced. */
export async function replaceDocument(db: Kysely<Database>, applicantId: string, row: Pick<DocumentRow, 'answer_key' | 'file_key' | 'file_name' | 'file_size'>): Promise<void> {
  await db.insertInto('documents')
    .values({ applicant_id: applicantId, ...row, status: 'UNPROCESSED', message: null, pdf_key: null, updated_at: new Date() })
    .onConflict((conflict) => conflict.columns(['applicant_id', 'answer_key']).doUpdateSet({
      file_key: row.file_key, file_name: row.file_name, file_size: row.file_size, status: 'UNPROCESSED', message: null, pdf_key: null, updated_at: new Date(),
    }))
    .execute();
}

/** Changes the status only while the row still holds this upload (a newer upload wins). */
export async function setDocumentStatus(
  db: Kysely<Database>, applicantId: string, answerKey: string, fileKey: string,
  change: { status: ConversionStatus; message?: string | null; pdf_key?: string | null },
): Promise<boolean> {
  const result = await db.updateTable('documents').set({ ...change, updated_at: new Date() })
    .where('applicant_id', '=', applicantId).where('answer_key', '=', answerKey).where('file_key', '=', fileKey)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteDocument(db: Kysely<Database>, applicantId: string, answerKey: string): Promise<DocumentRow | undefined> {
  return db.deleteFrom('documents').where('applicant_id', '=', applicantId).where('answer_key', '=', answerKey)
    .returning(columns).executeTakeFirst();
}
