import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../tables.ts';

export type StoredValue = string | boolean;

/**
 * Answers are stored one row per key, so a save writes only the keys it carries and two
 * tabs cannot erase each other's answers. "" clears a key (the row goes).
 */
export async function writeAnswers(
  db: Kysely<Database> | Transaction<Database>, applicantId: string, values: Record<string, StoredValue>, versions: Record<string, number>,
): Promise<void> {
  const cleared = Object.keys(values).filter((key) => values[key] === '');
  const written = Object.entries(values).filter(([, value]) => value !== '');
  if (cleared.length) {
    await db.deleteFrom('answers').where('applicant_id', '=', applicantId).where('key', 'in', cleared).execute();
  }
  if (written.length) {
    await db.insertInto('answers')
      .values(written.map(([key, value]) => ({
        applicant_id: applicantId,
        key,
        // jsonb: the value travels as JSON text (a bare string is not JSON)
        value: sql<StoredValue>`${JSON.stringify(value)}::jsonb`,
        schema_version: versions[key] ?? 1,
        updated_at: new Date(),
      })))
      .onConflict((conflict) => conflict.columns(['applicant_id', 'key']).doUpdateSet((eb) => ({
        value: eb.ref('excluded.value'),
        schema_version: eb.ref('excluded.schema_version'),
        updated_at: eb.ref('excluded.updated_at'),
      })))
      .execute();
  }
}

/**
 * writeAnswers, unless the application is submitted: the status check, the deletes and the
 * upsert in one statement (data-modifying CTEs), one database round trip where they took
 * three. Returns false, writing nothing, when it is submitted. Run it after lockApplicant
 * in the same transaction: a statement of its own takes a new snapshot (READ COMMITTED), so
 * it sees a submission that committed while the lock was awaited. (npm run bench:load:
 * round trips are most of what a save costs the server.)
 */
export async function writeAnswersUnlessSubmitted(
  tx: Transaction<Database>, applicantId: string, values: Record<string, StoredValue>, versions: Record<string, number>,
): Promise<boolean> {
  const cleared = Object.keys(values).filter((key) => values[key] === '');
  const written = Object.entries(values).filter(([, value]) => value !== '')
    .map(([key, value]) => ({ key, value, version: versions[key] ?? 1 }));
  const result = await sql<{ open: boolean }>`
    with guard as (
      select not exists (
        select 1 from web_status_entries where applicant_id = ${applicantId}::uuid and web_status = 'submitted'
      ) as open
    ), cleared as (
      delete from answers
      where applicant_id = ${applicantId}::uuid and key = any(${cleared}::text[]) and (select open from guard)
    ), written as (
      insert into answers (applicant_id, key, value, schema_version, updated_at)
      select ${applicantId}::uuid, item.key, item.value, item.version, ${new Date()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(written)}::jsonb) as item(key text, value jsonb, version integer)
      where (select open from guard)
      on conflict (applicant_id, key) do update
        set value = excluded.value, schema_version = excluded.schema_version, updated_at = excluded.updated_at
    )
    select open from guard`.execute(tx);
  return result.rows[0]!.open;
}

/** Every answer of an account that nobody has logged in to yet (a contested sign-up's carried answers). */
export async function deleteAnswersOf(db: Kysely<Database>, applicantId: string): Promise<void> {
  await db.deleteFrom('answers').where('applicant_id', '=', applicantId).execute();
}
