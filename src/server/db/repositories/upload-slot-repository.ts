import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface UploadUsage {
  /** registered uploads (their converted PDFs are sized in storage, not here) */
  documentBytes: number;
  /** unregistered uploads: what arrived, or the most that may have (S3 does not say) */
  slotBytes: number;
  /** slots still waiting for their upload or registration, whose presigned POST has not expired */
  openSlots: number;
}

export async function uploadUsage(db: Db, applicantId: string): Promise<UploadUsage> {
  const result = await sql<{ document_bytes: string | null; slot_bytes: string | null; open_slots: string | null }>`
    select
      (select sum(file_size) from documents where applicant_id = ${applicantId}::uuid) as document_bytes,
      (select sum(coalesce(stored_bytes, reserved_bytes)) from upload_slots where applicant_id = ${applicantId}::uuid and spent_at is null) as slot_bytes,
      (select count(*) from upload_slots where applicant_id = ${applicantId}::uuid and spent_at is null and expires_at > now()) as open_slots`.execute(db);
  const row = result.rows[0]!;
  return { documentBytes: Number(row.document_bytes ?? 0), slotBytes: Number(row.slot_bytes ?? 0), openSlots: Number(row.open_slots ?? 0) };
}

export async function insertUploadSlot(db: Db, slot: { key: string; applicantId: string; answerKey: string; reservedBytes: number; expiresAt: Date }): Promise<void> {
  await db.insertInto('upload_slots')
    .values({ key: slot.key, applicant_id: slot.applicantId, answer_key: slot.answerKey, reserved_bytes: slot.reservedBytes, expires_at: slot.expiresAt })
    .execute();
}

/** A slot that still waits for its upload or its registration (not spent). */
export function findUploadSlot(db: Db, key: string): Promise<{ applicant_id: string; reserved_bytes: number; stored_bytes: number | null } | undefined> {
  return db.selectFrom('upload_slots').select(['applicant_id', 'reserved_bytes', 'stored_bytes'])
    .where('key', '=', key).where('spent_at', 'is', null).executeTakeFirst();
}

export async function recordUploadStored(db: Db, key: string, bytes: number): Promise<void> {
  await db.updateTable('upload_slots').set({ stored_bytes: bytes }).where('key', '=', key).execute();
}

/**
 * Registered (the document row counts it now) or refused: the slot takes no more uploads
 * and counts no bytes, but stays until its POST has expired, for the sweep to remove what a
 * late POST may still leave at its key.
 */
export async function spendUploadSlot(db: Db, key: string): Promise<void> {
  await db.updateTable('upload_slots').set({ spent_at: new Date() }).where('key', '=', key).execute();
}

/**
 * Slots whose POST expired before `before` and whose key no document holds: their upload,
 * if any arrived, was never registered. Slots a document holds are just forgotten.
 */
export async function expiredUploadSlots(db: Db, before: Date, limit: number): Promise<string[]> {
  await db.deleteFrom('upload_slots').where('expires_at', '<', before)
    .where((eb) => eb.exists(eb.selectFrom('documents').select(sql`1`.as('one')).whereRef('documents.file_key', '=', 'upload_slots.key')))
    .execute();
  const rows = await db.selectFrom('upload_slots').select('key').where('expires_at', '<', before).orderBy('expires_at').limit(limit).execute();
  return rows.map((row) => row.key);
}

export async function deleteUploadSlots(db: Db, keys: string[]): Promise<void> {
  if (keys.length) await db.deleteFrom('upload_slots').where('key', 'in', keys).execute();
}
