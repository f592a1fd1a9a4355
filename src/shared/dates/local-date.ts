/**
 * Calendar dates in the partner's time zone (spec-decisions 16): every "today" and
 * "current year" rule uses it on both sides, so midnight never disagrees.
 */
export function localDate(now: Date, timeZone: string): string {
  // en-CA formats as YYYY-MM-DD
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export function localYear(now: Date, timeZone: string): number {
  return Number(localDate(now, timeZone).slice(0, 4));
}
