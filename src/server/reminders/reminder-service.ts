/**
 * Deadline reminders (schemas/reminders.json, schemas/deadlines.json). Every few minutes
 * one server selects, at the reminder clock's time, the rule due and the applicants it is
 * due to, recording each reminder and queueing its sending job in one transaction; the job
 * sends it once through the mailer (SMTP, or the outbox). Each reminder is recorded before
 * its mail goes, so a server killed between the two leaves a job that another server (or
 * the next start) runs: each applicant gets each rule once per deadline.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import deadlineFile from '../../../schemas/deadlines.json';
import partner from '../../../schemas/partner.json';
import reminderFile from '../../../schemas/reminders.json';
import { localDate } from '../../shared/dates/local-date.ts';
import { daysBetween } from '../../shared/deadlines/cycle-dates.ts';
import { deadlineEnds, dueReminder, inSendingHours, type ReminderSettings } from '../../shared/deadlines/reminder-rules.ts';
import {
  endReminder, plannedReminders, queueReminders, reminderToSend, remindersOn, setRemindersOn, startReminderAttempt,
  unsubscribeByReminder, withdrawReminder, type PlannedReminder, type UnsubscribeOutcome,
} from '../db/repositories/reminder-repository.ts';
import type { Database } from '../db/tables.ts';
import type { JobDefinition, JobQueue } from '../jobs/job-queue.ts';
import { MAIL_RETRY_FACTORS } from '../mail/mail-queue.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailLanguage } from '../mail/mail-texts.ts';
import { reminderMail } from './reminder-mail.ts';
import { reminderOfToken, unsubscribeToken } from './unsubscribe-token.ts';

export const settings = reminderFile as unknown as ReminderSettings;
const deadlines = deadlineFile.deadlines;
const ZONE = partner.time_zone;

/** How often a server looks for reminders that have come due (one server does, per period). */
export const REMINDERS_EVERY_MS = 5 * 60_000;
export const SELECT_JOB = 'reminders';
export const SEND_JOB = 'reminder';
const MAX_ATTEMPTS = MAIL_RETRY_FACTORS.length + 1;

export interface ReminderPlan {
  at: string;
  /** why nothing is due, when nothing is */
  nothing?: 'no rule is due' | 'outside the sending hours';
  rule?: string;
  deadline?: string;
  deadline_date?: string;
  days_left?: number;
  applicants: PlannedReminder[];
}

/** What the selection at `at` would do, without doing it (npm run reminders -- --dry-run). */
export async function planReminders(db: Kysely<Database>, at: Date): Promise<ReminderPlan> {
  const due = dueReminder(settings, deadlines, at, ZONE);
  if (!due) return { at: at.toISOString(), nothing: 'no rule is due', applicants: [] };
  const head = { at: at.toISOString(), rule: due.rule.id, deadline: due.deadline.id, deadline_date: due.deadline.date, days_left: due.daysLeft };
  if (!inSendingHours(settings, at, ZONE)) return { ...head, nothing: 'outside the sending hours', applicants: [] };
  return { ...head, applicants: await plannedReminders(db, { rule: due.rule.id, deadline: due.deadline.id, at, spacingDays: settings.at_most_one_every_days }) };
}

export function createReminders(options: { db: Kysely<Database>; jobs: JobQueue; mailer: Mailer; log: FastifyBaseLogger; publicUrl: () => string; secret: string }) {
  const { db, jobs, mailer, log, publicUrl, secret } = options;

  /** Records and queues the reminders due at `at` (the reminder clock's time); how many. */
  async function queueDue(at: Date): Promise<number> {
    const due = dueReminder(settings, deadlines, at, ZONE);
    if (!due || !inSendingHours(settings, at, ZONE)) return 0;
    const count = await queueReminders(db, { rule: due.rule.id, deadline: due.deadline.id, at, spacingDays: settings.at_most_one_every_days, maxAttempts: MAX_ATTEMPTS });
    if (count) {
      log.info({ rule: due.rule.id, deadline: due.deadline.id, count }, 'reminders queued');
      jobs.poke();
    }
    return count;
  }

  async function send(id: string): Promise<void> {
    const reminder = await reminderToSend(db, id);
    // the applicant deleted their account (the row went with it), or the reminder ended already
    if (!reminder || reminder.status === 'sent' || reminder.status === 'skipped' || reminder.status === 'failed') return;
    if (reminder.submitted) return endReminder(db, id, 'skipped', 'submitted');
    if (reminder.reminders_off) return endReminder(db, id, 'skipped', 'reminders turned off');
    const rule = settings.rules.find((item) => item.id === reminder.rule_id);
    const deadline = deadlines.find((item) => item.id === reminder.deadline_id);
    if (!rule || !deadline) return endReminder(db, id, 'skipped', 'its rule or deadline is no longer in the schema files');
    const clock = new Date(reminder.clock);
    if (deadlineEnds(deadline, ZONE) <= clock) return endReminder(db, id, 'skipped', 'the deadline passed');
    if (!inSendingHours(settings, clock, ZONE)) {
      // never at night: a reminder not yet tried is selected again in the day's hours; one
      // whose earlier attempt may have reached the mail server is not sent twice
      if (reminder.status === 'queued') return withdrawReminder(db, id);
      return endReminder(db, id, 'skipped', 'the sending hours ended');
    }
    if (!(await startReminderAttempt(db, id))) return;
    await mailer.send(reminderMail({
      reminderId: id, to: reminder.email, language: mailLanguage(reminder.language), rule, deadline,
      daysLeft: daysBetween(localDate(clock, ZONE), deadline.date), lastPage: reminder.last_page, name: reminder.first_name,
      publicUrl: publicUrl(), token: unsubscribeToken(secret, id),
    }));
    await endReminder(db, id, 'sent');
  }

  const sendJob: JobDefinition = {
    lane: 'reminders',
    maxAttempts: MAX_ATTEMPTS,
    retryFactors: MAIL_RETRY_FACTORS,
    run: (payload) => send((payload as { reminder: string }).reminder),
    async onGiveUp(payload, error) {
      await endReminder(db, (payload as { reminder: string }).reminder, 'failed', error.message);
    },
  };
  const selectJob: JobDefinition = {
    lane: 'maintenance',
    // the next period's selection takes what this one missed
    maxAttempts: 1,
    async run(payload) {
      // a selection queued for a set time (a test's clock) runs at it; the periodic one now
      const at = typeof (payload as { at?: unknown }).at === 'string' ? new Date((payload as { at: string }).at) : new Date();
      await queueDue(at);
    },
    async onGiveUp() {},
  };
  jobs.define(SELECT_JOB, selectJob);
  jobs.define(SEND_JOB, sendJob);
  jobs.every(SELECT_JOB, REMINDERS_EVERY_MS);

  return {
    queueDue,
    plan: (at: Date) => planReminders(db, at),
    /** The reminder a token names, if it is one of ours. */
    reminderOf: (token: unknown) => reminderOfToken(secret, token),
    unsubscribe: (reminderId: string): Promise<UnsubscribeOutcome> => unsubscribeByReminder(db, reminderId),
    isOn: (applicantId: string) => remindersOn(db, applicantId),
    setOn: (applicantId: string, on: boolean) => setRemindersOn(db, applicantId, on),
  };
}

export type Reminders = ReturnType<typeof createReminders>;
