import type { Kysely } from 'kysely';
import type { Database } from '../tables.ts';

export async function answersOf(db: Kysely<Database>, applicantId: string): Promise<Record<string, string | boolean>> {
  const rows = await db.selectFrom('answers').select(['key', 'value']).where('applicant_id', '=', applicantId).where('value', 'is not', null).execute();
  return Object.fromEntries(rows.map((row) => [row.key, row.value!]));
}

export function webStatusEntriesOf(db: Kysely<Database>, applicantId: string) {
  return db.selectFrom('web_status_entries').select(['web_status', 'created_at'])
    .where('applicant_id', '=', applicantId).orderBy('created_at').execute();
}

export async function lastPageOf(db: Kysely<Database>, applicantId: string): Promise<string | null> {
  const row = await db.selectFrom('applicants').select('last_page').where('id', '=', applicantId).executeTakeFirst();
  return row?.last_page ?? null;
}
