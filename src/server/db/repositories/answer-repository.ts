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
const orderedSave = preparedStatement((_db, applicantId: string, items: string, writer: string | null, now: Date) => sql<{ open: boolean; written: string[] }>`
    with applicant as (
      select submitted_at is null as open from applicants where id = ${applicantId}::uuid for update
    ), written as (
      insert into answers (applicant_id, key, value, schema_version, changed_at, writer, based_on, updated_at)
      select ${applicantId}::uuid, item.key, case when item.cleared then null else item.value end, item.version, item.changed_at,
        ${writer}::text, item.based_on, ${now}::timestamptz
      from jsonb_to_recordset(${items}::jsonb)
        as item(key text, value jsonb, cleared boolean, version integer, changed_at bigint, based_on bigint)
      where coalesce((select open from applicant), false)
      on conflict (applicant_id, key) do update
        set value = excluded.value, schema_version = excluded.schema_version, changed_at = excluded.changed_at,
          writer = excluded.writer, based_on = excluded.based_on, updated_at = excluded.updated_at
        where answers.changed_at <= excluded.changed_at
          and (excluded.based_on is null or answers.changed_at <= excluded.based_on or answers.writer = excluded.writer)
      returning key
    )
    select coalesce((select open from applicant), false) as open, coalesce((select array_agg(key) from written), '{}') as written`);

/** A save's effect: whether it was written at all, and the keys a newer or unseen change already holds. */
export interface OrderedWrite {
  open: boolean;
  /** keys not written, with what is stored ('' for cleared) */
  stale: Record<string, StoredValue>;
  /** the stored change (`changed_at`) of each stale key: the page has now seen it */
  staleClocks: Record<string, number>;
}

/** Which page writes, and what it had seen of each key (absent: a script that says nothing). */
export interface SaveBasis {
  writer: string | null;
  /** by key: the `changed_at` of the stored change the page had seen (0: none) */
  seen: Record<string, number>;
}

/**
 * The applicant's save, unless the application is submitted, in clock order and from a
 * true view: each key is written only if its change is at least as new as the stored one
 * (`changed_at`), and, when the page says what it had seen, only if the stored change is
 * one it saw or one it wrote itself (its `writer`). A cleared key stays as a row without a
 * value, so a late older save can neither overwrite a newer answer nor bring a cleared one
 * back, and a page that shows a key empty cannot write over a value another device saved.
 * Both rules are in the upsert's conflict clause, which PostgreSQL checks against the row
 * as it stands after any concurrent save. One statement, without BEGIN and COMMIT: it
 * locks the applicant's row (ordering it against a submit, which holds that lock) and reads
 * `submitted_at` from it; a row lock that had to wait reads the row as the submit left it,
 * so a save that waited on a submit writes nothing. Only a save that was refused a key
 * reads what those keys hold (a second statement).
 */
export async function writeAnswersUnlessSubmitted(
  db: Kysely<Database> | Transaction<Database>, applicantId: string, values: Record<string, StoredValue>, versions: Record<string, number>,
  clocks: Record<string, number>, basis: SaveBasis = { writer: null, seen: {} },
): Promise<OrderedWrite> {
  const items = Object.entries(values).map(([key, value]) => ({
    key, value, cleared: value === '', version: versions[key] ?? 1, changed_at: clocks[key] ?? 0,
    based_on: Object.hasOwn(basis.seen, key) ? basis.seen[key] : null,
  }));
  const result = await orderedSave(db, applicantId, JSON.stringify(items), basis.writer, new Date());
  const row = result.rows[0]!;
  if (!row.open) return { open: false, stale: {}, staleClocks: {} };
  const written = new Set(row.written);
  const refused = items.map((item) => item.key).filter((key) => !written.has(key));
  if (!refused.length) return { open: true, stale: {}, staleClocks: {} };
  // some key holds a newer change, or one the page never saw (rare: a late save, another device): which, and what it holds
  const stored = await db.selectFrom('answers').select(['key', 'value', 'changed_at'])
    .where('applicant_id', '=', applicantId).where('key', 'in', refused).execute();
  const stale: Record<string, StoredValue> = {};
  const staleClocks: Record<string, number> = {};
  for (const entry of stored) {
    stale[entry.key] = entry.value ?? '';
    staleClocks[entry.key] = Number(entry.changed_at);
  }
  return { open: true, stale, staleClocks };
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

/** What is stored for these keys, cleared ones too (null), with the clock of each stored change. */
export async function storedAnswersOf(
  db: Kysely<Database> | Transaction<Database>, applicantId: string, keys: string[],
): Promise<Map<string, { value: StoredValue | null; changedAt: number }>> {
  if (!keys.length) return new Map();
  const rows = await db.selectFrom('answers').select(['key', 'value', 'changed_at'])
    .where('applicant_id', '=', applicantId).where('key', 'in', keys).execute();
  return new Map(rows.map((row) => [row.key, { value: row.value, changedAt: Number(row.changed_at) }]));
}

/**
 * A change the server makes to answers on the applicant's behalf (an add-another item
 * removed, the ones after it moved up), stamped later than every change it replaces, so a
 * page that has not seen it cannot write over it unawares; "" clears a key (kept as a row
 * without a value, for its clock).
 */
export async function writeStampedAnswers(
  db: Transaction<Database>, applicantId: string, values: Record<string, StoredValue>, versions: Record<string, number>, stamp: number,
): Promise<void> {
  const entries = Object.entries(values);
  if (!entries.length) return;
  await db.insertInto('answers')
    .values(entries.map(([key, value]) => ({
      applicant_id: applicantId,
      key,
      value: value === '' ? null : sql<StoredValue>`${JSON.stringify(value)}::jsonb`,
      schema_version: versions[key] ?? 1,
      changed_at: stamp,
      writer: null,
      based_on: null,
      updated_at: new Date(),
    })))
    .onConflict((conflict) => conflict.columns(['applicant_id', 'key']).doUpdateSet((eb) => ({
      value: eb.ref('excluded.value'),
      schema_version: eb.ref('excluded.schema_version'),
      changed_at: eb.ref('excluded.changed_at'),
      writer: eb.ref('excluded.writer'),
      based_on: eb.ref('excluded.based_on'),
      updated_at: eb.ref('excluded.updated_at'),
    })))
    .execute();
}
