/**
 * What a change to the reminders (schemas/reminders.json, its Spanish) or the cycle's dates
 * (schemas/deadlines.json) does, in staff's words: each rule added, removed or changed, and
 * how; each deadline added, removed or moved; the spacing and the sending hours. None of it
 * touches saved answers, so none is breaking; a rule's changed timing changes who is mailed
 * next, which `npm run reminders -- --dry-run` shows.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ReminderChange {
  kind: 'rule added' | 'rule removed' | 'rule changed' | 'deadline added' | 'deadline removed' | 'deadline moved' | 'reminder settings changed';
  /** the rule's or deadline's id */
  id: string;
  detail: string;
}

type Json = Record<string, unknown>;
type Rule = { id: string; days_before: number; deadlines?: string[]; to: string; subject: string; text: string };

const read = (dir: string, file: string): Json | undefined => (existsSync(join(dir, file)) ? JSON.parse(readFileSync(join(dir, file), 'utf8')) as Json : undefined);
const rulesOf = (json: Json | undefined) => new Map(((json?.rules ?? []) as Rule[]).map((rule) => [rule.id, rule]));
const when = (rule: Rule) => `${rule.days_before} day${rule.days_before === 1 ? '' : 's'} before ${rule.deadlines ? rule.deadlines.join(', ') : 'each deadline'}`;

export function compareReminders(beforeDir: string, afterDir: string): ReminderChange[] {
  const changes: ReminderChange[] = [];
  const before = read(beforeDir, 'reminders.json');
  const after = read(afterDir, 'reminders.json');
  const beforeEs = rulesOf(read(beforeDir, 'i18n/es/reminders.json'));
  const afterEs = rulesOf(read(afterDir, 'i18n/es/reminders.json'));
  const was = rulesOf(before);
  const now = rulesOf(after);
  for (const [id, rule] of now) {
    const old = was.get(id);
    if (!old) {
      changes.push({ kind: 'rule added', id, detail: `"${id}": ${when(rule)}, to ${rule.to}` });
      continue;
    }
    const differences: string[] = [];
    if (when(old) !== when(rule)) differences.push(`now ${when(rule)} (was ${when(old)})`);
    if (old.to !== rule.to) differences.push(`now to ${rule.to} (was ${old.to})`);
    if (old.subject !== rule.subject) differences.push('its English subject changed');
    if (old.text !== rule.text) differences.push('its English text changed');
    const oldEs = beforeEs.get(id);
    const newEs = afterEs.get(id);
    if (oldEs?.subject !== newEs?.subject || oldEs?.text !== newEs?.text) differences.push('its Spanish changed');
    if (differences.length) changes.push({ kind: 'rule changed', id, detail: `"${id}": ${differences.join('; ')}` });
  }
  for (const [id, rule] of was) if (!now.has(id)) changes.push({ kind: 'rule removed', id, detail: `"${id}" (${when(rule)}): no longer sent` });

  const settings = (json: Json | undefined) => json && `at most one every ${String(json.at_most_one_every_days)} days, sent between ${(json.send_between as Json).from} and ${(json.send_between as Json).until}`;
  if (before && after && settings(before) !== settings(after)) changes.push({ kind: 'reminder settings changed', id: '', detail: `now ${settings(after)} (was ${settings(before)})` });

  const dates = (dir: string) => new Map((((read(dir, 'deadlines.json')?.deadlines ?? []) as { id: string; date: string }[])).map((item) => [item.id, item.date]));
  const oldDates = dates(beforeDir);
  const newDates = dates(afterDir);
  for (const [id, date] of newDates) {
    const old = oldDates.get(id);
    if (old === undefined) changes.push({ kind: 'deadline added', id, detail: `"${id}" on ${date}` });
    else if (old !== date) changes.push({ kind: 'deadline moved', id, detail: `"${id}" from ${old} to ${date}: its banner and reminders move with it` });
  }
  for (const [id, date] of oldDates) if (!newDates.has(id)) changes.push({ kind: 'deadline removed', id, detail: `"${id}" (${date})` });
  return changes;
}
