import partner from '../../../schemas/partner.json';
import { localDate, localYear } from '../dates/local-date.ts';
export { evaluateCondition } from '../answers/conditions.ts';

/**
 * What our own schema keywords do at run time. The compiled validators import these
 * (see keywords.ts), so "today" and "this year" are the partner's, on both sides.
 */

/** A real calendar date written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export interface DateBoundSpec {
  /** today minus this many years */
  years_ago?: number;
  /** a fixed day of the year current year + year_offset */
  year_offset?: number;
  month?: number;
  day?: number;
}

/** The bound as YYYY-MM-DD, computed from today in the partner's time zone. */
export function dateBound(spec: DateBoundSpec, now: Date = new Date()): { date: string; year: number } {
  if (spec.years_ago !== undefined) {
    const today = localDate(now, partner.time_zone);
    const year = Number(today.slice(0, 4)) - spec.years_ago;
    return { date: `${year}${today.slice(4)}`, year };
  }
  // a fixed day needs only the year (localYear spares the page the zone's work)
  const year = localYear(now, partner.time_zone) + (spec.year_offset ?? 0);
  const pad = (value: number) => String(value).padStart(2, '0');
  return { date: `${year}-${pad(spec.month ?? 1)}-${pad(spec.day ?? 1)}`, year };
}

export function dateNotBefore(value: string, spec: DateBoundSpec): boolean {
  return !isCalendarDate(value) || value >= dateBound(spec).date;
}

export function dateNotAfter(value: string, spec: DateBoundSpec): boolean {
  return !isCalendarDate(value) || value <= dateBound(spec).date;
}

export interface YearListSpec {
  count: number;
  direction: 'past' | 'future';
  start_offset: number;
}

/** The years a list offers, newest first for past lists (spec "Year lists"). */
export function yearRange(spec: YearListSpec, now: Date = new Date()): { first: number; last: number } {
  const start = localYear(now, partner.time_zone) + spec.start_offset;
  return spec.direction === 'past'
    ? { first: start - spec.count + 1, last: start }
    : { first: start, last: start + spec.count - 1 };
}

/** A year from the list, or one step beyond either end (spec-decisions 16: 1 January never invalidates a saved answer). */
export function yearInRange(value: string, spec: YearListSpec): boolean {
  if (!/^\d{4}$/.test(value)) return false;
  const { first, last } = yearRange(spec);
  const year = Number(value);
  return year >= first - 1 && year <= last + 1;
}
