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

export function localYear(now: Date, timeZone: string): number {
  return Number(localDate(now, timeZone).slice(0, 4));
}
