import type { Kysely } from 'kysely';
import type { Database } from '../tables.ts';

/** The server's secrets, as stored (sealed: see lib/secret-store.ts). */
export async function insertSecretIfAbsent(db: Kysely<Database>, name: string, value: string): Promise<void> {
  await db.insertInto('app_secrets').values({ name, value })
    .onConflict((conflict) => conflict.column('name').doNothing()).execute();
}

export async function findSecret(db: Kysely<Database>, name: string): Promise<string> {
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}

/** Replaces the stored form of a secret, if it is still `was` (another server may have sealed it first). */
export async function replaceSecret(db: Kysely<Database>, name: string, was: string, value: string): Promise<void> {
  await db.updateTable('app_secrets').set({ value }).where('name', '=', name).where('value', '=', was).execute();
}
