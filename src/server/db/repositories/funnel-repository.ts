import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables.ts';

/**
 * The funnel report's figures, each one aggregate statement over the whole database: the
 * memory they take follows the number of weeks, pages, questions and rules, never the
 * number of applicants. An applicant counts once they started (their `started` status).
 */

export interface WeekRow {
  week: number;
  started: number;
  /** per page path, how many reached it */
  reached: Record<string, number>;
  validating: number;
  submitted: number;
  /** whose application file became complete (applicants.file_complete_at, set once) */
  fileComplete: number;
}

export async function funnelByWeek(db: Kysely<Database>, opens: Date, pages: readonly string[]): Promise<WeekRow[]> {
  const reached = pages.map((page, index) => sql`count(*) filter (where exists (select 1 from pages_reached p where p.applicant_id = a.id and p.page = ${page}))::int as ${sql.ref(`r${index}`)}`);
  const result = await sql<Record<string, number>>`
    select floor(extract(epoch from (s.created_at - ${opens}::timestamptz)) / 604800)::int + 1 as week,
      count(*)::int as started,
      ${sql.join(reached)},
      count(*) filter (where exists (select 1 from web_status_entries v where v.applicant_id = a.id and v.web_status = 'validating'))::int as validating,
      count(*) filter (where a.submitted_at is not null)::int as submitted,
      count(*) filter (where a.file_complete_at is not null)::int as file_complete
    from applicants a join web_status_entries s on s.applicant_id = a.id and s.web_status = 'started'
    group by 1 order by 1`.execute(db);
  return result.rows.map((row) => ({
    week: row.week!, started: row.started!, validating: row.validating!, submitted: row.submitted!, fileComplete: row.file_complete!,
    reached: Object.fromEntries(pages.map((page, index) => [page, row[`r${index}`]!])),
  }));
}

/** How many applicants who have not submitted were last shown a message on each answer key, most first. */
export async function blockingKeys(db: Kysely<Database>, limit: number): Promise<{ key: string; applicants: number }[]> {
  const result = await sql<{ key: string; applicants: number }>`
    select k.key, count(*)::int as applicants
    from validation_snapshots v join applicants a on a.id = v.applicant_id, jsonb_object_keys(case when jsonb_typeof(v.errors) = 'object' then v.errors else '{}'::jsonb end) as k(key)
    where a.submitted_at is null
    group by k.key order by applicants desc, k.key limit ${limit}`.execute(db);
  return result.rows;
}

const LAST_ACTIVITY = sql`greatest(s.created_at,
  (select max(x.updated_at) from answers x where x.applicant_id = a.id),
  (select max(l.login_at) from logins l where l.applicant_id = a.id),
  (select max(p.reached_at) from pages_reached p where p.applicant_id = a.id))`;

/** Applicants who started, have not submitted and did nothing since `idleSince`, by their last page. */
export async function stoppedByPage(db: Kysely<Database>, idleSince: Date): Promise<{ page: string | null; applicants: number }[]> {
  const result = await sql<{ page: string | null; applicants: number }>`
    select a.last_page as page, count(*)::int as applicants
    from applicants a join web_status_entries s on s.applicant_id = a.id and s.web_status = 'started'
    where a.submitted_at is null and ${LAST_ACTIVITY} < ${idleSince}
    group by a.last_page order by applicants desc, a.last_page nulls last`.execute(db);
  return result.rows;
}

export interface StoppedApplicant {
  email: string;
  first_name: string | null;
  last_name: string | null;
  page: string | null;
  last_activity: Date;
}

/**
 * The same applicants by name, for --with-names, a slice of the e-mail index at a time: the
 * next `limit` accounts after `after` (a range of the index, whatever their state), of which
 * those who stopped; `next` is where the following slice starts (null after the last).
 */
export async function stoppedApplicants(
  db: Kysely<Database>, idleSince: Date, after: string | null, limit: number,
): Promise<{ rows: StoppedApplicant[]; next: string | null }> {
  const answer = (key: string) => sql`(select x.value #>> '{}' from answers x where x.applicant_id = a.id and x.key = ${key})`;
  const slice = await sql<{ email: string }>`
    select lower(email) as email from applicants where lower(email) > lower(coalesce(${after}::text, '')) order by lower(email) limit ${limit}`.execute(db);
  if (!slice.rows.length) return { rows: [], next: null };
  const last = slice.rows.at(-1)!.email;
  const result = await sql<StoppedApplicant>`
    select a.email, ${answer('first_name')} as first_name, ${answer('last_name')} as last_name, a.last_page as page, ${LAST_ACTIVITY} as last_activity
    from applicants a join web_status_entries s on s.applicant_id = a.id and s.web_status = 'started'
    where lower(a.email) > lower(coalesce(${after}::text, '')) and lower(a.email) <= ${last}
      and a.submitted_at is null and ${LAST_ACTIVITY} < ${idleSince}
    order by lower(a.email)`.execute(db);
  return { rows: result.rows, next: slice.rows.length < limit ? null : last };
}

export interface ReminderOutcomeRow {
  rule_id: string;
  deadline_id: string;
  sent: number;
  came_back: number;
  submitted: number;
  unsubscribed: number;
}

/** Per rule and deadline: reminders sent, and how many of their applicants came back (signed in or saved) or submitted after. */
export async function reminderOutcomes(db: Kysely<Database>): Promise<ReminderOutcomeRow[]> {
  const result = await sql<ReminderOutcomeRow>`
    select r.rule_id, r.deadline_id, count(*)::int as sent,
      count(*) filter (where exists (select 1 from logins l where l.applicant_id = r.applicant_id and l.login_at > r.sent_at)
        or exists (select 1 from answers x where x.applicant_id = r.applicant_id and x.updated_at > r.sent_at))::int as came_back,
      count(*) filter (where a.submitted_at > r.sent_at)::int as submitted,
      count(*) filter (where r.unsubscribed_at is not null)::int as unsubscribed
    from reminders r join applicants a on a.id = r.applicant_id
    where r.status = 'sent'
    group by r.rule_id, r.deadline_id order by min(r.sent_at), r.rule_id`.execute(db);
  return result.rows;
}
