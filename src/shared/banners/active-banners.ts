import type { Banners } from '../generated/types.ts';
import { localDate } from '../dates/local-date.ts';

export type Banner = Banners['banners'][number];

const DAY_MS = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Banners whose window holds today: start inclusive, end exclusive (spec section 4 "Banners").
 * Today is the partner's date; it is at most a day from the UTC date (zones run from UTC-12
 * to UTC+14), so a window that begins or ends more than a day away is decided without
 * working out the zone. That work (the first Intl.DateTimeFormat of a page, about 20 ms
 * of a first visit's main thread, issue 17) is done only near a window's edge.
 */
export function activeBanners(banners: readonly Banner[], now: Date, timeZone: string): Banner[] {
  const earliest = utcDate(now.getTime() - DAY_MS);
  const latest = utcDate(now.getTime() + DAY_MS);
  let today: string | undefined;
  return banners.filter((banner) => {
    if (banner.end <= earliest || latest < banner.start) return false;
    if (banner.start <= earliest && latest < banner.end) return true;
    today ??= localDate(now, timeZone);
    return banner.start <= today && today < banner.end;
  });
}
