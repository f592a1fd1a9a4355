import { describe, expect, it } from 'vitest';
import { localDate, localYear } from '../../src/shared/dates/local-date.ts';

const ZONES = ['Pacific/Kiritimati', 'Pacific/Auckland', 'Asia/Tokyo', 'UTC', 'America/Chicago', 'Pacific/Pago_Pago', 'Etc/GMT+12'];
const yearByIntl = (now: Date, timeZone: string) => Number(new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric' }).format(now));

describe('the partner\'s year and date', () => {
  it('gives the zone\'s year every half hour from 29 December to 3 January, in zones from UTC+14 to UTC-12', () => {
    const start = Date.UTC(2026, 11, 29);
    for (const timeZone of ZONES) {
      for (let at = start; at < Date.UTC(2027, 0, 3); at += 30 * 60_000) {
        const now = new Date(at);
        expect(localYear(now, timeZone), `${timeZone} at ${now.toISOString()}`).toBe(yearByIntl(now, timeZone));
      }
    }
  });

  it('gives the zone\'s year and date where the UTC year is already another', () => {
    const newYearInUtc = new Date('2027-01-01T03:00:00Z');
    expect(localYear(newYearInUtc, 'America/Chicago')).toBe(2026);
    expect(localDate(newYearInUtc, 'America/Chicago')).toBe('2026-12-31');
    const stillOldYearInUtc = new Date('2026-12-31T12:00:00Z');
    expect(localYear(stillOldYearInUtc, 'Pacific/Kiritimati')).toBe(2027);
    expect(localDate(stillOldYearInUtc, 'Pacific/Kiritimati')).toBe('2027-01-01');
  });

  it('gives the year far from New Year without asking the zone', () => {
    // an unknown zone would throw in Intl.DateTimeFormat: the year comes from UTC alone
    expect(localYear(new Date('2026-06-15T12:00:00Z'), 'Not/A_Zone')).toBe(2026);
    expect(() => localYear(new Date('2026-12-31T12:00:00Z'), 'Not/A_Zone')).toThrow(RangeError);
  });
});
