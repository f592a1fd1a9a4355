/**
 * Calendar dates in the partner's time zone (spec-decisions 16): every "today" and
 * "current year" rule uses it on both sides, so midnight never disagrees.
 */
// One formatter per time zone: making an Intl.DateTimeFormat costs far more than using it,
// and the server asks for every save with a year question (npm run bench:load).
const formatters = new Map<string, Intl.DateTimeFormat>();

export function localDate(now: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // en-CA formats as YYYY-MM-DD
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(now);
}

const DAY_MS = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The earliest and latest date (YYYY-MM-DD) any time zone has now: zones run from UTC-12 to
 * UTC+14, so the partner's date lies within a day of the UTC date. A rule whose answer is
 * the same for every date between them needs no zone worked out: a page's first
 * Intl.DateTimeFormat loads the browser's date data, 30-70 ms of a first visit's main thread.
 */
export function possibleDates(now: Date): { earliest: string; latest: string } {
  return { earliest: utcDate(now.getTime() - DAY_MS), latest: utcDate(now.getTime() + DAY_MS) };
}

/** The partner's year: worked out in the zone only when New Year is within a day. */
export function localYear(now: Date, timeZone: string): number {
  const { earliest, latest } = possibleDates(now);
  const year = earliest.slice(0, 4);
  return Number(year === latest.slice(0, 4) ? year : localDate(now, timeZone).slice(0, 4));
}
