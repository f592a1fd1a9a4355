import { sql, type Kysely } from 'kysely';

/**
 * A save is based on what its page saw: each answer row keeps which page (a writer id,
 * one per open page) wrote it and the stored change that page had seen for that key
 * (`based_on`, a `changed_at`). A write from a page that never saw the stored change is
 * refused as stale, in the upsert's own conflict rule, so two devices racing on one key
 * cannot slip past it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table answers add column writer text`.execute(db);
  await sql`alter table answers add column based_on bigint`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table answers drop column based_on`.execute(db);
  await sql`alter table answers drop column writer`.execute(db);
}
