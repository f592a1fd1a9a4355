import { afterEach, describe, expect, it, vi } from 'vitest';
import { activeBanners, type Banner } from '../../src/shared/banners/active-banners.ts';
import { localDate } from '../../src/shared/dates/local-date.ts';

/** Banners decided without Intl unless a window's edge is near; the same answer as the exact rule. */
const banners: Banner[] = [
  { id: 'a', start: '2026-12-16', end: '2027-01-16', text: 'A' },
  { id: 'b', start: '2027-01-16', end: '2027-01-17', text: 'B' },
  { id: 'c', start: '2027-02-01', end: '2027-03-02', text: 'C' },
];
const exact = (now: Date, zone: string) => {
  const today = localDate(now, zone);
  return banners.filter((banner) => banner.start <= today && today < banner.end).map((banner) => banner.id);
};

describe('activeBanners', () => {
  afterEach(() => vi.restoreAllMocks());

  it('agrees with the partner-date rule at every hour around every edge, in the zones furthest from UTC', () => {
    const edges = [...new Set(banners.flatMap((banner) => [banner.start, banner.end]))];
    let compared = 0;
    for (const zone of ['Pacific/Kiritimati', 'Etc/GMT+12', 'America/Chicago', 'Asia/Kolkata', 'UTC']) {
      for (const edge of edges) {
        for (let hour = -60; hour <= 60; hour++) {
          const now = new Date(Date.parse(`${edge}T00:00:00Z`) + hour * 3_600_000);
          expect(activeBanners(banners, now, zone).map((banner) => banner.id), `${zone} ${now.toISOString()}`).toEqual(exact(now, zone));
          compared++;
        }
      }
    }
    expect(compared).toBe(5 * 5 * 121);
  });

  it('works out no time zone when every window is more than a day away', () => {
    const format = vi.spyOn(Intl.DateTimeFormat.prototype as { format: unknown }, 'format', 'get'); // a getter: every localDate reads it
    expect(activeBanners(banners, new Date('2026-11-24T12:00:00Z'), 'America/Chicago')).toEqual([]);
    expect(activeBanners(banners, new Date('2026-12-25T12:00:00Z'), 'America/Chicago').map((banner) => banner.id)).toEqual(['a']);
    expect(format).not.toHaveBeenCalled();
    // near an edge the zone decides: 03:00 UTC on the 16th is still the 15th in Chicago
    expect(activeBanners(banners, new Date('2027-01-16T03:00:00Z'), 'America/Chicago').map((banner) => banner.id)).toEqual(['a']);
    expect(format).toHaveBeenCalled();
  });
});
