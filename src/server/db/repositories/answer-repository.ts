import { sql, type Kysely, type Transaction } from 'kysely';
import { preparedStatement } from '../prepared-statement.ts';
import type { Database } from '../tables.ts';

export type StoredValue = string | boolean;

/**
 * The server's own writes (a converted document's marker, answers carried at sign-up, the
 * entry term at submit), whatever the clock: answers are stored one row per key, so a save
 * writes only the keys it carries and two tabs cannot erase each other's answers. ""
 * clears a key (the row goes).
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

/** The statement of writeAnswersUnlessSubmitted below, prepared: it runs on every save. */
const orderedSave = preparedStatement((_db, applicantId: string, items: string, now: Date) => sql<{ open: boolean; written: number }>`
    with applicant as (
      select submitted_at is null as open from applicants where id = ${applicantId}::uuid for update
    ), written as (
      insert into answers (applicant_id, key, value, schema_version, changed_at, updated_at)
      select ${applicantId}::uuid, item.key, case when item.cleared then null else item.value end, item.version, item.changed_at, ${now}::timestamptz
      from jsonb_to_recordset(${items}::jsonb)
        as item(key text, value jsonb, cleared boolean, version integer, changed_at bigint)
      where coalesce((select open from applicant), false)
      on conflict (applicant_id, key) do update
        set value = excluded.value, schema_version = excluded.schema_version, changed_at = excluded.changed_at, updated_at = excluded.updated_at
        where answers.changed_at <= excluded.changed_at
      returning 1
    )
    select coalesce((select open from applicant), false) as open, (select count(*) from written)::int as written`);

/** A save's effect: whether it was written at all, and the keys a newer change already holds. */
export interface OrderedWrite {
  open: boolean;
  /** keys not written because the stored change is newer, with what is stored ('' for cleared) */
  stale: Record<string, StoredValue>;
}

/**
 * The applicant's save, unless the application is submitted, in clock order: each key is
 * written only if its change is at least as new as the stored one (`changed_at`), and a
 * cleared key stays as a row without a value, so a late older save can neither overwrite a
 * newer answer nor bring a cleared one back. One statement, without BEGIN and COMMIT: it
 * locks the applicant's row (ordering it against a submit, which holds that lock) and reads
 * `submitted_at` from it; a row lock that had to wait reads the row as the submit left it,
 * so a save that waited on a submit writes nothing. Only a save that met a newer change
 * reads what those keys hold (a second statement).
 */
export async function writeAnswersUnlessSubmitted(
  db: Kysely<Database> | Transaction<Database>, applicantId: string, values: Record<string, StoredValue>, versions: Record<string, number>, clocks: Record<string, number>,
): Promise<OrderedWrite> {
  const items = Object.entries(values).map(([key, value]) => ({
    key, value, cleared: value === '', version: versions[key] ?? 1, changed_at: clocks[key] ?? 0,
  }));
  const result = await orderedSave(db, applicantId, JSON.stringify(items), new Date());
  const row = result.rows[0]!;
  if (!row.open) return { open: false, stale: {} };
  if (row.written === items.length) return { open: true, stale: {} };
  // some key holds a newer change (rare: a late save, another tab): which, and what it holds
  const stored = await db.selectFrom('answers').select(['key', 'value', 'changed_at'])
    .where('applicant_id', '=', applicantId).where('key', 'in', items.map((item) => item.key)).execute();
  const stale: Record<string, StoredValue> = {};
  for (const entry of stored) {
    if (Number(entry.changed_at) > (clocks[entry.key] ?? 0)) stale[entry.key] = entry.value ?? '';
  }
  return { open: true, stale };
}

/** Every answer of an account that nobody has logged in to yet (a contested sign-up's carried answers). */
export async function deleteAnswersOf(db: Kysely<Database>, applicantId: string): Promise<void> {
  await db.deleteFrom('answers').where('applicant_id', '=', applicantId).execute();
}

/** A saved answer as schema:impact reads it: applicant, key, value. */
export type SavedAnswer = [applicantId: string, key: string, value: StoredValue];

/**
 * One page of every answer that holds a value, in (applicant, key) order, after the given
 * pair: schema:impact reads them a page at a time (through a running server's admin
 * channel on the embedded database), never all in one reply.
 */
export async function savedAnswersAfter(db: Kysely<Database>, after: [string, string] | null, limit: number): Promise<SavedAnswer[]> {
  let query = db.selectFrom('answers').select(['applicant_id', 'key', 'value']).where('value', 'is not', null)
    .orderBy('applicant_id').orderBy('key').limit(limit);
  if (after) query = query.where((eb) => eb(eb.refTuple('applicant_id', 'key'), '>', eb.tuple(after[0], after[1])));
  const rows = await query.execute();
  return rows.map((row) => [row.applicant_id, row.key, row.value as StoredValue]);
}
