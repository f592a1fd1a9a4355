/**
 * Instants from a calendar day and a time of day in a time zone, and back: the reminders
 * are due from a day's start and sent only in the day's hours, in the partner's time zone.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(at: Date, timeZone: string): Record<string, number> {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return Object.fromEntries(formatter.formatToParts(at).filter((part) => part.type !== 'literal').map((part) => [part.type, Number(part.value)]));
}

/** How far the zone's wall clock is ahead of UTC at `at`, in ms. */
function offsetAt(at: Date, timeZone: string): number {
  const parts = partsIn(at, timeZone);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant the zone's clock reads `time` (HH:MM) on `date` (YYYY-MM-DD); a time a DST change skips comes out an hour later. */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const wall = Date.parse(`${date}T${time}:00Z`);
  let guess = wall - offsetAt(new Date(wall), timeZone);
  guess = wall - offsetAt(new Date(guess), timeZone);
  return new Date(guess);
}

/** The zone's time of day at `at`, as HH:MM. */
export function zonedTimeOfDay(at: Date, timeZone: string): string {
  const parts = partsIn(at, timeZone);
  return `${String(parts.hour).padStart(2, '0')}:${String(parts.minute).padStart(2, '0')}`;
}
