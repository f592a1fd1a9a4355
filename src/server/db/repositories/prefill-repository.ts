import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables.ts';

export async function insertPrefill(db: Kysely<Database>, tokenHash: string, answers: Record<string, string>, expiresAt: Date): Promise<void> {
  await db.insertInto('prefill_tokens').values({ token_hash: tokenHash, answers: sql`${JSON.stringify(answers)}::jsonb`, expires_at: expiresAt }).execute();
}

export async function findPrefill(db: Kysely<Database>, tokenHash: string): Promise<Record<string, string> | undefined> {
  const row = await db.selectFrom('prefill_tokens').select(['answers', 'expires_at'])
    .where('token_hash', '=', tokenHash).where('used_at', 'is', null).executeTakeFirst();
  if (!row || row.expires_at.getTime() < Date.now()) return undefined;
  return row.answers as Record<string, string>;
}

export async function deletePrefill(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await db.deleteFrom('prefill_tokens').where('token_hash', '=', tokenHash).execute();
}

/** An account used it (spec-decisions, behaviour 5): it answers no more, and the sweep removes it. */
export async function markPrefillUsed(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await db.updateTable('prefill_tokens').set({ used_at: new Date() }).where('token_hash', '=', tokenHash).execute();
}

export async function deleteSpentPrefills(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db.deleteFrom('prefill_tokens')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<', now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
