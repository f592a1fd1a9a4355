import { localDate, possibleDates } from '../dates/local-date.ts';
import type { ShownBanner } from '../deadlines/cycle-dates.ts';

export type Banner = ShownBanner;

/**
 * Banners whose window holds today: start inclusive, end exclusive (spec section 4 "Banners").
 * Today is the partner's date; a window that holds, or misses, every date a zone can have
 * now (possibleDates) is decided without working out the zone, which is done only near a
 * window's edge.
 */
export function activeBanners(banners: readonly Banner[], now: Date, timeZone: string): Banner[] {
  const { earliest, latest } = possibleDates(now);
  let today: string | undefined;
  return banners.filter((banner) => {
    if (banner.end <= earliest || latest < banner.start) return false;
    if (banner.start <= earliest && latest < banner.end) return true;
    today ??= localDate(now, timeZone);
    return banner.start <= today && today < banner.end;
  });
}
