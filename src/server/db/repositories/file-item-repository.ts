import { sql, type Kysely, type Transaction } from 'kysely';
import type { StoredItemState } from '../../../shared/file-items/checklist.ts';
import type { Database, FileItemsTable } from '../tables.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface StoredFileItem extends StoredItemState {
  changed_by: string;
  note: string | null;
  document_key: string | null;
}

export async function fileItemsOf(db: Db, applicantId: string): Promise<StoredFileItem[]> {
  return db.selectFrom('file_items').select(['item_id', 'state', 'changed_at', 'changed_by', 'note', 'document_key'])
    .where('applicant_id', '=', applicantId).execute();
}

export interface FileItemWrite {
  state: FileItemsTable['state'];
  changedBy: string;
  note?: string | null;
  documentKey?: string | null;
}

/** Sets an item's state; returns the row as stored. */
export async function writeFileItem(db: Db, applicantId: string, itemId: string, write: FileItemWrite): Promise<StoredFileItem> {
  const values = {
    state: write.state, changed_at: new Date(), changed_by: write.changedBy, note: write.note ?? null, document_key: write.documentKey ?? null,
  };
  return db.insertInto('file_items').values({ applicant_id: applicantId, item_id: itemId, ...values })
    .onConflict((conflict) => conflict.columns(['applicant_id', 'item_id']).doUpdateSet(values))
    .returning(['item_id', 'state', 'changed_at', 'changed_by', 'note', 'document_key'])
    .executeTakeFirstOrThrow();
}

/** Back to missing (the office corrects a mistake). Returns whether there was a state to remove. */
export async function clearFileItem(db: Db, applicantId: string, itemId: string): Promise<boolean> {
  const result = await db.deleteFrom('file_items').where('applicant_id', '=', applicantId).where('item_id', '=', itemId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export interface FileHolder {
  id: string;
  email: string;
  language: string;
  submitted_at: Date | null;
  file_complete_at: Date | null;
}

/** The applicant whose file changes, locked until the transaction ends: two changes at once see each other. */
export async function lockFileHolder(db: Transaction<Database>, applicantId: string): Promise<FileHolder | undefined> {
  const result = await sql<FileHolder>`select id, email, language, submitted_at, file_complete_at from applicants where id = ${applicantId} for update`.execute(db);
  return result.rows[0];
}

export async function fileHolder(db: Db, applicantId: string): Promise<FileHolder | undefined> {
  return db.selectFrom('applicants').select(['id', 'email', 'language', 'submitted_at', 'file_complete_at']).where('id', '=', applicantId).executeTakeFirst();
}

/** Marks the file complete unless it is already: true for the one transaction that did. */
export async function markFileComplete(db: Transaction<Database>, applicantId: string): Promise<Date | undefined> {
  const row = await db.updateTable('applicants').set({ file_complete_at: sql<Date>`now()` })
    .where('id', '=', applicantId).where('file_complete_at', 'is', null).where('submitted_at', 'is not', null)
    .returning('file_complete_at').executeTakeFirst();
  return row?.file_complete_at ?? undefined;
}


/** The applicant with this e-mail address, compared without case. */
export async function fileHolderByEmail(db: Db, email: string): Promise<FileHolder | undefined> {
  return db.selectFrom('applicants').select(['id', 'email', 'language', 'submitted_at', 'file_complete_at'])
    .where(sql<string>`lower(email)`, '=', email.trim().toLowerCase()).executeTakeFirst();
}
