/**
 * When a reminder rule (schemas/reminders.json) is due: from the start of the day
 * `days_before` its deadline (schemas/deadlines.json), in the partner's time zone, until the
 * deadline's day ends or a rule closer to that deadline is due; only the nearest deadline
 * that has not ended is reminded of, and no mail goes outside the sending hours.
 */
import type { Reminders } from '../generated/types.ts';
import { localDate } from '../dates/local-date.ts';
import { addDays, daysBetween, nextDay, type Deadline } from './cycle-dates.ts';
import { zonedInstant, zonedTimeOfDay } from './zoned-time.ts';

export type ReminderRule = Reminders['rules'][number];
export type ReminderSettings = Reminders;

/** What a reminder's texts can name; {login_url} and {unsubscribe_url} must be in every text. */
export const REMINDER_PLACEHOLDERS = ['deadline', 'days', 'page', 'name', 'login_url', 'unsubscribe_url', 'partner', 'short_name', 'help_email'] as const;
export const REQUIRED_REMINDER_PLACEHOLDERS = ['login_url', 'unsubscribe_url'] as const;

export interface DueReminder {
  rule: ReminderRule;
  deadline: Deadline;
  /** whole days from the partner's date to the deadline's */
  daysLeft: number;
}

/** The instant a deadline ends: the start of the day after it, in the zone. */
export function deadlineEnds(deadline: Deadline, timeZone: string): Date {
  return zonedInstant(nextDay(deadline.date), '00:00', timeZone);
}

/** The instant a rule becomes due for a deadline. */
export function ruleDueFrom(rule: ReminderRule, deadline: Deadline, timeZone: string): Date {
  return zonedInstant(addDays(deadline.date, -rule.days_before), '00:00', timeZone);
}

/** The rule due at `at`, and for which deadline, if any. */
export function dueReminder(settings: ReminderSettings, deadlines: readonly Deadline[], at: Date, timeZone: string): DueReminder | undefined {
  const next = [...deadlines].sort((a, b) => a.date.localeCompare(b.date)).find((deadline) => deadlineEnds(deadline, timeZone) > at);
  if (!next) return undefined;
  const rule = settings.rules
    .filter((item) => (!item.deadlines || item.deadlines.includes(next.id)) && ruleDueFrom(item, next, timeZone) <= at)
    .sort((a, b) => a.days_before - b.days_before)[0];
  return rule ? { rule, deadline: next, daysLeft: daysBetween(localDate(at, timeZone), next.date) } : undefined;
}

/** Whether `at` lies in the sending hours (from inclusive, until exclusive) of the partner's day. */
export function inSendingHours(settings: Pick<ReminderSettings, 'send_between'>, at: Date, timeZone: string): boolean {
  const time = zonedTimeOfDay(at, timeZone);
  return settings.send_between.from <= time && time < settings.send_between.until;
}
