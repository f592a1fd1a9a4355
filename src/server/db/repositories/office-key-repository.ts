import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables.ts';

export interface OfficeKeyRow {
  id: string;
  name: string;
  made_by: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  revoked_by: string | null;
}

const COLUMNS = ['id', 'name', 'made_by', 'created_at', 'last_used_at', 'revoked_at', 'revoked_by'] as const;

export async function insertOfficeKey(db: Kysely<Database>, key: { name: string; keyHash: string; madeBy: string }): Promise<OfficeKeyRow> {
  return db.insertInto('office_keys').values({ name: key.name, key_hash: key.keyHash, made_by: key.madeBy })
    .returning(COLUMNS).executeTakeFirstOrThrow();
}

/** The key whose hash this is, revoked or not (the caller refuses a revoked one). */
export async function officeKeyByHash(db: Kysely<Database>, keyHash: string): Promise<OfficeKeyRow | undefined> {
  return db.selectFrom('office_keys').select(COLUMNS).where('key_hash', '=', keyHash).executeTakeFirst();
}

export async function listOfficeKeys(db: Kysely<Database>, all: boolean): Promise<OfficeKeyRow[]> {
  let query = db.selectFrom('office_keys').select(COLUMNS).orderBy('created_at', 'desc').orderBy('id');
  if (!all) query = query.where('revoked_at', 'is', null);
  return query.execute();
}

/** The keys whose id starts with this text (an id or its first characters). */
export async function officeKeysByIdPrefix(db: Kysely<Database>, prefix: string): Promise<OfficeKeyRow[]> {
  return db.selectFrom('office_keys').select(COLUMNS).where(sql<string>`id::text`, 'like', `${prefix.toLowerCase().replace(/[^0-9a-f-]/g, '')}%`).limit(2).execute();
}

/** Revokes it unless it already is; the row as it is afterwards, and whether this call did it. */
export async function revokeOfficeKey(db: Kysely<Database>, id: string, by: string): Promise<{ row: OfficeKeyRow; revoked: boolean } | undefined> {
  const revoked = await db.updateTable('office_keys').set({ revoked_at: sql<Date>`now()`, revoked_by: by })
    .where('id', '=', id).where('revoked_at', 'is', null).returning(COLUMNS).executeTakeFirst();
  if (revoked) return { row: revoked, revoked: true };
  const row = await db.selectFrom('office_keys').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? { row, revoked: false } : undefined;
}

/** Records a use, at most once a minute per key (one UPDATE, which changes nothing within the minute). */
export async function touchOfficeKey(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('office_keys').set({ last_used_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where((where) => where.or([where('last_used_at', 'is', null), where('last_used_at', '<', sql<Date>`now() - interval '1 minute'`)]))
    .execute();
}
