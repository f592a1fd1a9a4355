import type { Kysely } from 'kysely';
import type { Database } from '../tables.ts';

/**
 * A server secret kept in the database, made on first use, so every instance on one
 * database signs and verifies with the same key.
 */
export async function getOrCreateSecret(db: Kysely<Database>, name: string, create: () => string): Promise<string> {
  await db.insertInto('app_secrets').values({ name, value: create() })
    .onConflict((conflict) => conflict.column('name').doNothing()).execute();
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
