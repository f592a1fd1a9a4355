import type { Banners } from '../generated/types.ts';
import { localDate } from '../dates/local-date.ts';

export type Banner = Banners['banners'][number];

/** Banners whose window holds today: start inclusive, end exclusive (spec section 4 "Banners"). */
export function activeBanners(banners: readonly Banner[], now: Date, timeZone: string): Banner[] {
  const today = localDate(now, timeZone);
  return banners.filter((banner) => banner.start <= today && today < banner.end);
}
