/**
 * The funnel report's figures (npm run report:funnel): applicants at each step of the
 * application, per week of the cycle and in all, the questions that hold them up, where
 * those who stopped stopped, and what followed each reminder. The same object is the
 * report's JSON (--format json) and what its HTML is drawn from. Nothing here names an
 * applicant; `stoppedApplicants` (--with-names) is read separately, a page at a time.
 */
import type { Kysely } from 'kysely';
import deadlineFile from '../../../schemas/deadlines.json';
import partner from '../../../schemas/partner.json';
import frame from '../../../schemas/text/frame.json';
import reportText from '../../../schemas/text/funnel-report.json';
import { addDays } from '../../shared/deadlines/cycle-dates.ts';
import { zonedInstant } from '../../shared/deadlines/zoned-time.ts';
import { form } from '../../shared/form/form-model-data.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { blockingKeys, funnelByWeek, reminderOutcomes, stoppedByPage, type WeekRow } from '../db/repositories/funnel-repository.ts';
import type { Database } from '../db/tables.ts';

export interface FunnelStep {
  id: string;
  label: string;
}

export interface FunnelFigures {
  generated_at: string;
  cycle: { opens: string; deadlines: { id: string; date: string }[] };
  idle_days: number;
  steps: FunnelStep[];
  /** applicants at each step (in `steps` order), and those lost since the step before (0 for the first) */
  total: { counts: number[]; lost: number[] };
  weeks: { week: number; starts_on: string; counts: number[] }[];
  questions: { key: string; label: string; section: string; page: string; applicants: number }[];
  stopped: { page: string | null; label: string; applicants: number }[];
  reminders: { rule: string; deadline: string; deadline_date: string | null; sent: number; came_back: number; submitted: number; unsubscribed: number }[];
}

/** The most questions the report lists. */
const QUESTIONS = 15;
const pages = frame.steps.map((step) => step.path);
const pageLabel = (path: string | null) => frame.steps.find((step) => step.path === path)?.label ?? reportText.no_page;
const partnerFilled = (text: string) => fillTemplate(text, { partner: partner.name, short_name: partner.short_name, n: '' });

/** The steps in order, each with how a week's row counts it; a new step needs its count in funnelByWeek. */
const STEPS: { step: FunnelStep; count(row: WeekRow): number }[] = [
  { step: { id: 'started', label: reportText.steps.started }, count: (row) => row.started },
  ...pages.map((path) => ({ step: { id: `reached:${path}`, label: fillTemplate(reportText.steps.reached, { page: pageLabel(path) }) }, count: (row: WeekRow) => row.reached[path] ?? 0 })),
  { step: { id: 'validating', label: reportText.steps.validating }, count: (row) => row.validating },
  { step: { id: 'submitted', label: reportText.steps.submitted }, count: (row) => row.submitted },
  { step: { id: 'file_complete', label: reportText.steps.file_complete }, count: (row) => row.fileComplete },
];

/** Where the staff preview shows a question: its label, section and page. */
const whereAsked = (() => {
  const found = new Map<string, { section: string; page: string }>();
  for (const page of form.pageOrder) {
    for (const section of form.pages[page].sections) for (const key of section.keys) found.set(key, { section: section.title, page: form.pages[page].title });
  }
  return (key: string) => found.get(key);
})();

export async function funnelFigures(db: Kysely<Database>, options: { at: Date; idleDays: number }): Promise<FunnelFigures> {
  const { opens } = deadlineFile.cycle;
  const opensAt = zonedInstant(opens, '00:00', partner.time_zone);
  const [weekRows, keys, stopped, outcomes] = await Promise.all([
    funnelByWeek(db, opensAt, pages),
    blockingKeys(db, QUESTIONS * 4),
    stoppedByPage(db, new Date(options.at.getTime() - options.idleDays * 86_400_000)),
    reminderOutcomes(db),
  ]);
  // every week from the cycle's first (or the earliest start) to the latest start, a quiet one as zeros
  const byWeek = new Map(weekRows.map((row) => [row.week, row]));
  const first = Math.min(1, ...weekRows.map((row) => row.week));
  const last = Math.max(0, ...weekRows.map((row) => row.week));
  const empty = (week: number): WeekRow => ({ week, started: 0, reached: {}, validating: 0, submitted: 0, fileComplete: 0 });
  const weeks = Array.from({ length: Math.max(0, last - first + 1) }, (_unused, index) => byWeek.get(first + index) ?? empty(first + index))
    .map((row) => ({ week: row.week, starts_on: addDays(opens, (row.week - 1) * 7), counts: STEPS.map((item) => item.count(row)) }));
  const counts = STEPS.map((_item, index) => weeks.reduce((sum, week) => sum + week.counts[index]!, 0));
  return {
    generated_at: options.at.toISOString(),
    cycle: { opens, deadlines: deadlineFile.deadlines.map(({ id, date }) => ({ id, date })) },
    idle_days: options.idleDays,
    steps: STEPS.map((item) => item.step),
    total: { counts, lost: counts.map((count, index) => (index === 0 ? 0 : counts[index - 1]! - count)) },
    weeks,
    // a key the form does not ask (an applicant may post any) is no question of ours
    questions: keys.flatMap(({ key, applicants }) => {
      const field = form.fields[key];
      const where = whereAsked(key);
      return field ? [{ key, label: partnerFilled(field.title), section: where?.section ?? '', page: where?.page ?? form.pages[field.page].title, applicants }] : [];
    }).slice(0, QUESTIONS),
    stopped: stopped.map((row) => ({ page: row.page, label: pageLabel(row.page), applicants: row.applicants })),
    reminders: outcomes.map((row) => ({
      rule: row.rule_id, deadline: row.deadline_id, deadline_date: deadlineFile.deadlines.find((item) => item.id === row.deadline_id)?.date ?? null,
      sent: row.sent, came_back: row.came_back, submitted: row.submitted, unsubscribed: row.unsubscribed,
    })),
  };
}
