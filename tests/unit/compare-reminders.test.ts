import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareReminders } from '../../scripts/schema-impact/compare-reminders.ts';
import { schemasDir } from '../../scripts/schema-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'reminders-impact-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function changed(edit: (files: { reminders: any; deadlines: any; spanish: any }) => void): string {
  const copy = join(dir, String(Math.random()).slice(2));
  cpSync(schemasDir, copy, { recursive: true });
  const read = (file: string) => JSON.parse(readFileSync(join(copy, file), 'utf8'));
  const files = { reminders: read('reminders.json'), deadlines: read('deadlines.json'), spanish: read('i18n/es/reminders.json') };
  edit(files);
  writeFileSync(join(copy, 'reminders.json'), JSON.stringify(files.reminders));
  writeFileSync(join(copy, 'deadlines.json'), JSON.stringify(files.deadlines));
  writeFileSync(join(copy, 'i18n/es/reminders.json'), JSON.stringify(files.spanish));
  return compareReminders(schemasDir, copy).map((change) => `${change.kind}: ${change.detail}`).join('\n');
}

describe('schema:impact on the reminders', () => {
  it('names a rule whose timing, text or Spanish changed, one added and one removed', () => {
    const said = changed(({ reminders, spanish }) => {
      reminders.rules[0].days_before = 10;
      reminders.rules[1].text += '\nSee you soon.';
      spanish.rules[1].subject = 'Mañana: {short_name}';
      reminders.rules.push({ ...reminders.rules[1], id: 'on-the-day', days_before: 0 });
    });
    expect(said).toContain('rule changed: "week-before": now 10 days before each deadline (was 7 days before each deadline)');
    expect(said).toContain('rule changed: "day-before": its English text changed; its Spanish changed');
    expect(said).toContain('rule added: "on-the-day": 0 days before each deadline');
    expect(changed(({ reminders }) => reminders.rules.shift())).toContain('rule removed: "week-before"');
  });

  it('names a deadline moved and the spacing changed; nothing when nothing changed', () => {
    const said = changed(({ deadlines, reminders }) => {
      deadlines.deadlines[0].date = '2027-01-20';
      reminders.at_most_one_every_days = 5;
    });
    expect(said).toContain('deadline moved: "deadline-jan" from 2027-01-15 to 2027-01-20');
    expect(said).toContain('reminder settings changed: now at most one every 5 days');
    expect(changed(() => {})).toBe('');
  });
});
