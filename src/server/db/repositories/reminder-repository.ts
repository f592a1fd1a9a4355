import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../tables.ts';

/** Who a rule of the reminders goes to, at `at`: confirmed, started, not submitted, not stopped, not reminded of it yet, nor lately. */
function eligible(rule: string, deadline: string, at: Date, spacingDays: number): RawBuilder<unknown> {
  return sql`a.confirmed_at is not null and a.submitted_at is null and a.reminders_off_at is null and a.created_at <= ${at}
    and exists (select 1 from web_status_entries w where w.applicant_id = a.id and w.web_status = 'started')
    and not exists (select 1 from web_status_entries w where w.applicant_id = a.id and w.web_status = 'submitted')
    and not exists (select 1 from reminders r where r.applicant_id = a.id and r.rule_id = ${rule} and r.deadline_id = ${deadline})
    and not exists (select 1 from reminders r where r.applicant_id = a.id and r.status in ('queued', 'sending', 'sent')
      and r.due_at > ${at}::timestamptz - ${`${spacingDays} days`}::interval)`;
}

/** Serialises selections: two servers selecting at once would each see the other's reminders missing. */
const SELECTION_LOCK = 7_340_061;

/**
 * Records a reminder of `rule` for every applicant it is due to and queues its sending job,
 * in one transaction: a server killed after it leaves both, one before leaves neither. The
 * unique key (applicant, rule, deadline) lets each go once, whoever selects. Returns how many.
 */
export async function queueReminders(
  db: Kysely<Database>, selection: { rule: string; deadline: string; at: Date; spacingDays: number; maxAttempts: number },
): Promise<number> {
  const { rule, deadline, at, spacingDays, maxAttempts } = selection;
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${SELECTION_LOCK})`.execute(tx);
    const result = await sql<{ id: string }>`
      with chosen as (
        insert into reminders (applicant_id, rule_id, deadline_id, due_at)
        select a.id, ${rule}, ${deadline}, ${at} from applicants a where ${eligible(rule, deadline, at, spacingDays)}
        on conflict (applicant_id, rule_id, deadline_id) do nothing
        returning id
      )
      insert into jobs (kind, lane, payload, status, max_attempts)
      select 'reminder', 'reminders', jsonb_build_object('reminder', id::text), 'queued', ${maxAttempts}::integer from chosen
      returning id`.execute(tx);
    return result.rows.length;
  });
}

export interface PlannedReminder {
  email: string;
  language: string;
  last_page: string | null;
}

/** Who `queueReminders` would select at `at` (the dry run), by e-mail address. */
export async function plannedReminders(db: Kysely<Database>, selection: { rule: string; deadline: string; at: Date; spacingDays: number }): Promise<PlannedReminder[]> {
  const { rule, deadline, at, spacingDays } = selection;
  const result = await sql<PlannedReminder>`
    select a.email, a.language, a.last_page from applicants a where ${eligible(rule, deadline, at, spacingDays)} order by a.email`.execute(db);
  return result.rows;
}

export interface ReminderToSend {
  id: string;
  applicant_id: string;
  status: string;
  rule_id: string;
  deadline_id: string;
  /** the reminder clock now: the time it was due for, plus the time since it was queued */
  clock: Date;
  email: string;
  language: string;
  last_page: string | null;
  submitted: boolean;
  reminders_off: boolean;
  first_name: string | null;
}

export async function reminderToSend(db: Kysely<Database>, id: string): Promise<ReminderToSend | undefined> {
  const result = await sql<ReminderToSend>`
    select r.id, r.applicant_id, r.status, r.rule_id, r.deadline_id, r.due_at + (now() - r.queued_at) as clock,
      a.email, a.language, a.last_page, a.submitted_at is not null as submitted, a.reminders_off_at is not null as reminders_off,
      (select x.value #>> '{}' from answers x where x.applicant_id = a.id and x.key = 'first_name') as first_name
    from reminders r join applicants a on a.id = r.applicant_id where r.id = ${id}`.execute(db);
  return result.rows[0];
}

/** An attempt begins: recorded before the mail server is asked. False when the reminder has ended meanwhile. */
export async function startReminderAttempt(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await sql`update reminders set status = 'sending', attempts = attempts + 1 where id = ${id} and status in ('queued', 'sending')`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

export async function endReminder(db: Kysely<Database>, id: string, status: 'sent' | 'skipped' | 'failed', reason: string | null = null): Promise<void> {
  await sql`update reminders set status = ${status}, reason = ${reason}, sent_at = case when ${status} = 'sent' then now() else sent_at end
    where id = ${id} and status in ('queued', 'sending')`.execute(db);
}

/** A reminder that could not go out in the sending hours: gone, so a later selection in the day's hours takes it again. */
export async function withdrawReminder(db: Kysely<Database>, id: string): Promise<void> {
  await sql`delete from reminders where id = ${id} and status = 'queued'`.execute(db);
}

export type UnsubscribeOutcome = 'stopped' | 'spent' | 'unknown';

/**
 * The unsubscribe link of `reminderId` used: the applicant's reminders stop, and the link is
 * marked used. A link used before answers the same while reminders are still off (a mail
 * provider may post it twice); once the applicant turned them back on, it is spent.
 */
export async function unsubscribeByReminder(db: Kysely<Database>, reminderId: string): Promise<UnsubscribeOutcome> {
  return db.transaction().execute(async (tx) => {
    const row = (await sql<{ applicant_id: string; unsubscribed_at: Date | null; reminders_off_at: Date | null }>`
      select r.applicant_id, r.unsubscribed_at, a.reminders_off_at from reminders r join applicants a on a.id = r.applicant_id
      where r.id = ${reminderId} for update of a`.execute(tx)).rows[0];
    if (!row) return 'unknown';
    if (row.unsubscribed_at) return row.reminders_off_at ? 'stopped' : 'spent';
    await sql`update reminders set unsubscribed_at = now() where id = ${reminderId}`.execute(tx);
    await sql`update applicants set reminders_off_at = coalesce(reminders_off_at, now()) where id = ${row.applicant_id}`.execute(tx);
    return 'stopped';
  });
}

export async function remindersOn(db: Kysely<Database>, applicantId: string): Promise<boolean> {
  const row = await db.selectFrom('applicants').select('reminders_off_at').where('id', '=', applicantId).executeTakeFirst();
  return !row?.reminders_off_at;
}

export async function setRemindersOn(db: Kysely<Database>, applicantId: string, on: boolean): Promise<void> {
  await sql`update applicants set reminders_off_at = case when ${on} then null else coalesce(reminders_off_at, now()) end where id = ${applicantId}`.execute(db);
}
