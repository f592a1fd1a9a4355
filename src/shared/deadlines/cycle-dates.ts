/**
 * The cycle's dates (schemas/deadlines.json) as the banners, the reminders and the funnel
 * report read them: one source. Dates are calendar days in the partner's time zone
 * (YYYY-MM-DD); a deadline holds until the end of its day.
 */
import type { Banners, Deadlines } from '../generated/types.ts';
import { fillTemplate } from '../text/fill-template.ts';

export type Deadline = Deadlines['deadlines'][number];
type BannerEntry = Banners['banners'][number];

/** A banner as the frame shows it: its window worked out, {deadline} filled in. */
export interface ShownBanner {
  id: string;
  start: string;
  end: string;
  text: string;
}

const DAY_MS = 86_400_000;

/** The calendar day after `date` (YYYY-MM-DD). */
export function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** `date` plus `days` calendar days (negative: before). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole calendar days from `from` to `to`. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** "January 15", "15 de enero": a deadline's day as `language` writes it. */
export function deadlineText(date: string, language: string): string {
  return new Intl.DateTimeFormat(language, { month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));
}

/** Each banner with its end (the day after its deadline, else its own) and its text filled in `language`. */
export function shownBanners(banners: readonly BannerEntry[], deadlines: readonly Deadline[], language: string): ShownBanner[] {
  return banners.map((banner) => {
    const deadline = banner.deadline === undefined ? undefined : deadlines.find((item) => item.id === banner.deadline);
    if (banner.deadline !== undefined && !deadline) throw new Error(`schemas/banners.json: banner ${banner.id} names deadline ${banner.deadline}, which deadlines.json does not have`);
    const end = deadline ? nextDay(deadline.date) : banner.end!;
    return { id: banner.id, start: banner.start, end, text: deadline ? fillTemplate(banner.text, { deadline: deadlineText(deadline.date, language) }) : banner.text };
  });
}
