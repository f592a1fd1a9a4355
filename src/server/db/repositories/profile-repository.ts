import type { Kysely } from 'kysely';
import type { Database } from '../tables.ts';

export async function answersOf(db: Kysely<Database>, applicantId: string): Promise<Record<string, string | boolean>> {
  const rows = await db.selectFrom('answers').select(['key', 'value']).where('applicant_id', '=', applicantId).where('value', 'is not', null).execute();
  return Object.fromEntries(rows.map((row) => [row.key, row.value!]));
}

/** The answers with values, and the clock of every stored change of a key, cleared ones too: what a page has seen. */
export async function answersAndClocksOf(db: Kysely<Database>, applicantId: string): Promise<{ answer: Record<string, string | boolean>; clock: Record<string, number> }> {
  const rows = await db.selectFrom('answers').select(['key', 'value', 'changed_at']).where('applicant_id', '=', applicantId).execute();
  const answer: Record<string, string | boolean> = {};
  const clock: Record<string, number> = {};
  for (const row of rows) {
    if (row.value !== null) answer[row.key] = row.value;
    clock[row.key] = Number(row.changed_at);
  }
  return { answer, clock };
}

export function webStatusEntriesOf(db: Kysely<Database>, applicantId: string) {
  return db.selectFrom('web_status_entries').select(['web_status', 'created_at'])
    .where('applicant_id', '=', applicantId).orderBy('created_at').execute();
}

export async function lastPageOf(db: Kysely<Database>, applicantId: string): Promise<string | null> {
  const row = await db.selectFrom('applicants').select('last_page').where('id', '=', applicantId).executeTakeFirst();
  return row?.last_page ?? null;
}
