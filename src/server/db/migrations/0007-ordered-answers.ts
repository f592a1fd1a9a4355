import { sql, type Kysely } from 'kysely';

/**
 * Ordered saves: each answer row keeps the client clock of the change that wrote
 * it (milliseconds), and a cleared answer stays as a row without a value, so an older save
 * that arrives late can neither overwrite a newer value nor bring back a cleared one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table answers add column changed_at bigint not null default 0`.execute(db);
  await sql`alter table answers alter column value drop not null`.execute(db);
}
