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

/**
 * The partner's year. Zones run from UTC-12 to UTC+14, so the local year is the UTC year
 * unless New Year is within a day: only then is the zone worked out. A page's first
 * Intl.DateTimeFormat loads the browser's date data, 30-70 ms of a first visit's main
 * thread (issue 17), and a year list needs only the year.
 */
export function localYear(now: Date, timeZone: string): number {
  const dayBefore = new Date(now.getTime() - DAY_MS).getUTCFullYear();
  if (dayBefore === new Date(now.getTime() + DAY_MS).getUTCFullYear()) return dayBefore;
  return Number(localDate(now, timeZone).slice(0, 4));
}
