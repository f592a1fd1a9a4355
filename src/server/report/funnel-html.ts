/**
 * The funnel report as one self-contained HTML page: its style inline, its charts inline
 * SVG, no script, and a Content-Security-Policy that lets it load nothing from anywhere, so
 * it reads the same offline and sends no request. Every figure is in a table with a caption
 * and headers (the charts only repeat them). Every text from the data is escaped. The page
 * is written in parts: the head and the figures, then (with --with-names) the rows of those
 * who stopped as they are read, then the end.
 */
import reportText from '../../../schemas/text/funnel-report.json';
import partner from '../../../schemas/partner.json';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import type { FunnelFigures } from './funnel-figures.ts';
import { barChart, weekLines } from './funnel-charts.ts';
import { escapeHtml as esc } from './html-text.ts';

const number = (value: number) => value.toLocaleString('en-US');
const percent = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)} %` : '–');

const STYLE = `body{font-family:system-ui,sans-serif;color:#1b1b1b;max-width:62rem;margin:2rem auto;padding:0 1rem;line-height:1.45}
h1{font-size:1.6rem;color:#1c3a5e}h2{font-size:1.25rem;margin-top:2.2rem;color:#1c3a5e}
table{border-collapse:collapse;margin:.8rem 0;min-width:60%}caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{border:1px solid #b9c3cf;padding:.3rem .6rem;text-align:left}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
thead th{background:#eef2f6}th[scope=row]{white-space:nowrap}figure{margin:1rem 0}.note{color:#444;font-size:.92rem}`;

function table(caption: string, headers: { text: string; numeric?: boolean }[], rows: (string | number)[][], rowHeader = true): string {
  const head = headers.map((header) => `<th scope="col"${header.numeric ? ' class="n"' : ''}>${esc(header.text)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell, index) => {
    const numeric = headers[index]?.numeric;
    const content = typeof cell === 'number' ? number(cell) : esc(cell);
    return index === 0 && rowHeader ? `<th scope="row">${content}</th>` : `<td${numeric ? ' class="n"' : ''}>${content}</td>`;
  }).join('')}</tr>`).join('');
  return `<table><caption>${esc(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

export function reportHead(figures: FunnelFigures, options: { withNames: boolean }): string {
  const text = reportText;
  const c = text.columns;
  const { steps, total } = figures;
  const title = fillTemplate(text.title, { cycle: partner.intake_label });
  const funnel = table(text.funnel_caption, [{ text: c.step }, { text: c.applicants, numeric: true }, { text: c.share, numeric: true }, { text: c.lost, numeric: true }],
    // more at a step than at the one before: some reached it without that step (a page skipped)
    steps.map((step, index) => [step.label, total.counts[index]!, percent(total.counts[index]!, total.counts[0]!), !index ? '–' : total.lost[index]! < 0 ? `+${number(-total.lost[index]!)}` : total.lost[index]!]));
  const weeks = table(text.weeks_caption, [{ text: c.week }, ...steps.map((step) => ({ text: step.label, numeric: true }))],
    figures.weeks.map((week) => [week.starts_on, ...week.counts]));
  const submittedAt = steps.findIndex((step) => step.id === 'submitted');
  const q = text.question_columns;
  const questions = figures.questions.length
    ? table(text.questions_caption, [{ text: q.question }, { text: q.key }, { text: q.section }, { text: q.page }, { text: q.applicants, numeric: true }],
      figures.questions.map((row) => [row.label, row.key, row.section, row.page, row.applicants]))
    : `<p>${esc(text.no_questions)}</p>`;
  const stopped = table(text.stopped_caption, [{ text: text.stopped_columns.page }, { text: text.stopped_columns.applicants, numeric: true }],
    figures.stopped.map((row) => [row.label, row.applicants]));
  const r = text.reminder_columns;
  const reminders = figures.reminders.length
    ? table(text.reminders_caption, [{ text: r.rule }, { text: r.deadline }, { text: r.sent, numeric: true }, { text: r.came_back, numeric: true }, { text: r.submitted, numeric: true }, { text: r.unsubscribed, numeric: true }],
      figures.reminders.map((row) => [row.rule, row.deadline_date ?? row.deadline, row.sent, row.came_back, row.submitted, row.unsubscribed]))
    : `<p>${esc(text.no_reminders)}</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><main>
<h1>${esc(title)}</h1>
<p class="note">${esc(fillTemplate(text.generated, { at: figures.generated_at.replace('T', ' ').slice(0, 16) + ' UTC', opens: figures.cycle.opens }))} ${esc(text.chart_note)}${options.withNames ? '' : ` ${esc(text.no_names)}`}</p>
<h2>${esc(text.funnel_heading)}</h2>
<figure>${barChart(steps.map((step, index) => ({ label: step.label, value: total.counts[index]! })), text.funnel_caption)}</figure>
${funnel}
<h2>${esc(text.weeks_heading)}</h2>
<figure>${weekLines(figures.weeks.map((week) => ({ label: week.starts_on.slice(5), first: week.counts[0]!, second: week.counts[submittedAt]! })), [steps[0]!.label, steps[submittedAt]!.label], text.weeks_chart)}</figure>
${weeks}
<h2>${esc(text.questions_heading)}</h2>
<p>${esc(text.questions_intro)}</p>
${figures.questions.length ? `<figure>${barChart(figures.questions.map((row) => ({ label: row.label.length > 38 ? `${row.label.slice(0, 37)}…` : row.label, value: row.applicants })), text.questions_caption)}</figure>` : ''}
${questions}
<h2>${esc(text.stopped_heading)}</h2>
<p>${esc(fillTemplate(text.stopped_intro, { days: figures.idle_days }))}</p>
${stopped}
<h2>${esc(text.reminders_heading)}</h2>
${reminders}
`;
}

/** With --with-names: the table's start, its rows as they are read, then its end. */
export function namesStart(): string {
  const n = reportText.name_columns;
  return `<h2>${esc(reportText.names_heading)}</h2><table><caption>${esc(reportText.names_caption)}</caption><thead><tr>${[n.email, n.name, n.page, n.last_activity].map((header) => `<th scope="col">${esc(header)}</th>`).join('')}</tr></thead><tbody>`;
}

export function nameRow(row: { email: string; first_name: string | null; last_name: string | null; page: string | null; last_activity: string }, pageLabel: (page: string | null) => string): string {
  const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return `<tr><th scope="row">${esc(row.email)}</th><td>${esc(name)}</td><td>${esc(pageLabel(row.page))}</td><td>${esc(row.last_activity.slice(0, 10))}</td></tr>\n`;
}

export const namesEnd = () => '</tbody></table>\n';
export const reportEnd = () => '</main></body></html>\n';
