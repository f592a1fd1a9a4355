import { describe, expect, it } from 'vitest';
import deadlineFile from '../../schemas/deadlines.json';
import reminderFile from '../../schemas/reminders.json';
import { deadlineText, shownBanners } from '../../src/shared/deadlines/cycle-dates.ts';
import { deadlineEnds, dueReminder, inSendingHours, type ReminderSettings } from '../../src/shared/deadlines/reminder-rules.ts';
import { zonedInstant, zonedTimeOfDay } from '../../src/shared/deadlines/zoned-time.ts';

const ZONE = 'America/Chicago';
const settings = reminderFile as unknown as ReminderSettings;
const deadlines = deadlineFile.deadlines;

describe('the cycle dates', () => {
  it('writes a deadline as each language does', () => {
    expect(deadlineText('2027-01-15', 'en')).toBe('January 15');
    expect(deadlineText('2027-01-15', 'es')).toBe('15 de enero');
  });

  it('ends a deadline\'s banner the day after it, with the date in its text', () => {
    const [banner] = shownBanners([{ id: 'x', deadline: 'deadline-jan', start: '2026-12-16', text: 'By {deadline}!' }], deadlines, 'en');
    expect(banner).toEqual({ id: 'x', start: '2026-12-16', end: '2027-01-16', text: 'By January 15!' });
    expect(() => shownBanners([{ id: 'y', deadline: 'nope', start: '2026-12-16', text: '' }], deadlines, 'en')).toThrow(/nope/);
  });

  it('finds the instant a zone\'s clock shows a time, across daylight saving', () => {
    expect(zonedInstant('2027-01-15', '00:00', ZONE).toISOString()).toBe('2027-01-15T06:00:00.000Z');
    expect(zonedInstant('2027-07-15', '09:00', ZONE).toISOString()).toBe('2027-07-15T14:00:00.000Z');
    expect(zonedTimeOfDay(new Date('2027-03-14T08:30:00Z'), ZONE)).toBe('03:30'); // the morning clocks go forward
  });
});

describe('which reminder is due', () => {
  const at = (iso: string) => dueReminder(settings, deadlines, new Date(iso), ZONE);

  it('none before the first rule\'s day, the week rule from the start of its day, the day rule from its own', () => {
    expect(at('2027-01-08T05:59:00Z')).toBeUndefined(); // 23:59 on January 7 in Chicago
    expect(at('2027-01-08T06:00:00Z')).toMatchObject({ rule: { id: 'week-before' }, deadline: { id: 'deadline-jan' }, daysLeft: 7 });
    expect(at('2027-01-14T15:00:00Z')).toMatchObject({ rule: { id: 'day-before' }, deadline: { id: 'deadline-jan' }, daysLeft: 1 });
    expect(at('2027-01-15T23:00:00Z')).toMatchObject({ rule: { id: 'day-before' }, daysLeft: 0 });
  });

  it('moves on to the next deadline once one has ended', () => {
    expect(deadlineEnds(deadlines[0]!, ZONE).toISOString()).toBe('2027-01-16T06:00:00.000Z');
    expect(at('2027-01-16T06:00:00Z')).toBeUndefined();
    expect(at('2027-02-22T15:00:00Z')).toMatchObject({ rule: { id: 'week-before' }, deadline: { id: 'deadline-mar' } });
    expect(at('2027-04-21T15:00:00Z')).toBeUndefined(); // the cycle's last deadline has passed
  });

  it('sends only in the partner\'s daytime hours', () => {
    expect(inSendingHours(settings, new Date('2027-01-08T15:00:00Z'), ZONE)).toBe(true); // 09:00
    expect(inSendingHours(settings, new Date('2027-01-08T14:59:00Z'), ZONE)).toBe(false); // 08:59
    expect(inSendingHours(settings, new Date('2027-01-09T02:00:00Z'), ZONE)).toBe(false); // 20:00
  });
});
