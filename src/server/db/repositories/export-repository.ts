import { ITEM_ANSWER_PREFIX } from '../../../shared/file-items/item-documents.ts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables.ts';

/**
 * The export's reads (npm run export:applications), a page at a time by keyset: each page
 * starts after the last row of the one before, so memory stays flat however many there are.
 * Times travel as ISO text with microseconds: a JavaScript Date would cut them to
 * milliseconds, and the next page would start before rows it already had.
 */
export interface ExportedApplicant {
  id: string;
  email: string;
  /** the applicant's language ('en', 'es'): the office's data itself is the same in every language */
  language: string;
  /** ISO time of the submit, null while in progress */
  submitted_at: string | null;
  /** the page's cursor and the incremental run's clock: submit time, or (with --all) the last change */
  changed_at: string;
  /** ISO time the application file became complete (applicants.file_complete_at), null before */
  file_complete_at: string | null;
}

const iso = (column: string) => sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Submitted applications with a submit time at or after `since`, in submit order. */
export async function submittedPage(db: Kysely<Database>, since: string | undefined, after: { at: string; id: string } | undefined, limit: number): Promise<ExportedApplicant[]> {
  let query = db.selectFrom('web_status_entries as w').innerJoin('applicants as a', 'a.id', 'w.applicant_id')
    .select(['w.applicant_id as id', 'a.email', 'a.language', iso('w.created_at').as('submitted_at'), iso('w.created_at').as('changed_at'), iso('a.file_complete_at').as('file_complete_at')])
    .where('w.web_status', '=', 'submitted');
  if (since) query = query.where('w.created_at', '>=', sql<Date>`${since}::timestamptz`);
  if (after) query = query.where(sql<boolean>`(w.created_at, w.applicant_id) > (${after.at}::timestamptz, ${after.id}::uuid)`);
  return query.orderBy('w.created_at').orderBy('w.applicant_id').limit(limit).execute();
}

/** Every application, submitted or not, whose status or answers changed at or after `since`, by id. */
export async function everyApplicationPage(db: Kysely<Database>, since: string | undefined, afterId: string | undefined, limit: number): Promise<ExportedApplicant[]> {
  const changed = sql<Date>`greatest(a.created_at,
    (select max(s.created_at) from web_status_entries s where s.applicant_id = a.id),
    (select max(v.updated_at) from answers v where v.applicant_id = a.id),
    (select max(f.changed_at) from file_items f where f.applicant_id = a.id), a.file_complete_at)`;
  let query = db.selectFrom('applicants as a')
    .leftJoin('web_status_entries as w', (join) => join.onRef('w.applicant_id', '=', 'a.id').on('w.web_status', '=', 'submitted'))
    .select(['a.id', 'a.email', 'a.language', sql<string | null>`case when w.created_at is null then null else ${iso('w.created_at')} end`.as('submitted_at'),
      sql<string>`to_char(${changed} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('changed_at'), iso('a.file_complete_at').as('file_complete_at')]);
  if (since) query = query.where(changed, '>=', sql<Date>`${since}::timestamptz`);
  if (afterId) query = query.where('a.id', '>', afterId);
  return query.orderBy('a.id').limit(limit).execute();
}

export function answersOfMany(db: Kysely<Database>, ids: string[]) {
  return db.selectFrom('answers').select(['applicant_id', 'key', 'value'])
    .where('applicant_id', 'in', ids).where('value', 'is not', null).execute();
}

export function statusHistoryOfMany(db: Kysely<Database>, ids: string[]) {
  return db.selectFrom('web_status_entries').select(['applicant_id', 'web_status', iso('created_at').as('at')])
    .where('applicant_id', 'in', ids).orderBy('applicant_id').orderBy('created_at').execute();
}

/** The application file's stored item states (no row: missing), with their change times as ISO text. */
export function fileItemsOfMany(db: Kysely<Database>, ids: string[]) {
  return db.selectFrom('file_items').select(['applicant_id', 'item_id', 'state', iso('changed_at').as('changed_at')])
    .where('applicant_id', 'in', ids).execute();
}

export function convertedDocumentsOfMany(db: Kysely<Database>, ids: string[]) {
  return db.selectFrom('documents').select(['applicant_id', 'answer_key', 'pdf_key'])
    .where('applicant_id', 'in', ids).where('status', '=', 'COMPLETED').where('pdf_key', 'is not', null)
    .where('answer_key', 'not like', `${ITEM_ANSWER_PREFIX}%`).execute(); // an item's document is no answer
}

export function applicationPdfsOfMany(db: Kysely<Database>, ids: string[]) {
  return db.selectFrom('application_pdfs').select(['applicant_id', 'fingerprint', 'pdf_key'])
    .where('applicant_id', 'in', ids).where('status', '=', 'COMPLETED').where('pdf_key', 'is not', null).execute();
}

/**
 * Answer keys stored for the applicants after `afterId` (a slice of `limit` by id) that are
 * not among `known`: keys since removed from the data model. Read a slice at a time, so no
 * one statement scans every answer. `next`: where the following slice starts (none: done).
 */
export async function otherStoredKeysSlice(db: Kysely<Database>, known: string[], afterId: string | undefined, limit: number): Promise<{ keys: string[]; next: string | undefined }> {
  let slice = db.selectFrom('applicants').select('id').orderBy('id').limit(limit);
  if (afterId) slice = slice.where('id', '>', afterId);
  const [rows, last] = await Promise.all([
    db.selectFrom(slice.as('a')).innerJoin('answers as v', 'v.applicant_id', 'a.id').select('v.key').distinct()
      .where(sql<boolean>`not (v.key = any(${known}::text[]))`).execute(),
    slice.clearOrderBy().clearLimit().orderBy('id').offset(limit - 1).limit(1).executeTakeFirst(),
  ]);
  return { keys: rows.map((row) => row.key), next: last?.id };
}
