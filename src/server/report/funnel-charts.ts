/**
 * The report's charts as SVG text, drawn on the server with d3's scales and shapes (no
 * browser, no DOM): a figure the tables beside them also give, so each chart is hidden from
 * screen readers and named by its table.
 */
import { scaleBand, scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import { escapeHtml } from './html-text.ts';

const WIDTH = 760;
const INK = '#1c3a5e';
const SECOND = '#c0591b';

/** Horizontal bars, one per row, with its figure at its end. */
export function barChart(rows: { label: string; value: number }[], title: string): string {
  const rowHeight = 28;
  const left = 260;
  const height = rows.length * rowHeight + 10;
  const x = scaleLinear().domain([0, Math.max(1, ...rows.map((row) => row.value))]).range([0, WIDTH - left - 70]);
  const y = scaleBand().domain(rows.map((_row, index) => String(index))).range([5, height - 5]).padding(0.2);
  const bars = rows.map((row, index) => {
    const top = y(String(index))!;
    const middle = top + y.bandwidth() / 2;
    return `<text x="${left - 8}" y="${middle}" text-anchor="end" dominant-baseline="middle">${escapeHtml(row.label)}</text>`
      + `<rect x="${left}" y="${top}" width="${x(row.value).toFixed(1)}" height="${y.bandwidth().toFixed(1)}" fill="${INK}"/>`
      + `<text x="${(left + x(row.value) + 6).toFixed(1)}" y="${middle}" dominant-baseline="middle">${row.value.toLocaleString('en-US')}</text>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-hidden="true" font-size="13"><title>${escapeHtml(title)}</title>${bars}</svg>`;
}

/** Two lines over the weeks (started, submitted), with their legend. */
export function weekLines(weeks: { label: string; first: number; second: number }[], names: [string, string], title: string): string {
  const height = 260;
  const margin = { left: 50, right: 20, top: 30, bottom: 40 };
  const x = scaleLinear().domain([0, Math.max(1, weeks.length - 1)]).range([margin.left, WIDTH - margin.right]);
  const y = scaleLinear().domain([0, Math.max(1, ...weeks.map((week) => Math.max(week.first, week.second)))]).nice().range([height - margin.bottom, margin.top]);
  const path = (pick: (week: (typeof weeks)[number]) => number) => line<(typeof weeks)[number]>().x((_week, index) => x(index)).y((week) => y(pick(week)))(weeks) ?? '';
  const ticks = y.ticks(5).map((tick) => `<line x1="${margin.left}" x2="${WIDTH - margin.right}" y1="${y(tick)}" y2="${y(tick)}" stroke="#ddd"/><text x="${margin.left - 6}" y="${y(tick)}" text-anchor="end" dominant-baseline="middle">${tick.toLocaleString('en-US')}</text>`).join('');
  const every = Math.max(1, Math.ceil(weeks.length / 10));
  const labels = weeks.map((week, index) => (index % every ? '' : `<text x="${x(index)}" y="${height - margin.bottom + 18}" text-anchor="middle">${escapeHtml(week.label)}</text>`)).join('');
  const legend = `<rect x="${margin.left}" y="6" width="14" height="4" fill="${INK}"/><text x="${margin.left + 20}" y="10" dominant-baseline="middle">${escapeHtml(names[0])}</text>`
    + `<rect x="${margin.left + 200}" y="6" width="14" height="4" fill="${SECOND}"/><text x="${margin.left + 220}" y="10" dominant-baseline="middle">${escapeHtml(names[1])}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-hidden="true" font-size="12"><title>${escapeHtml(title)}</title>${ticks}${labels}${legend}`
    + `<path d="${path((week) => week.first)}" fill="none" stroke="${INK}" stroke-width="2.5"/><path d="${path((week) => week.second)}" fill="none" stroke="${SECOND}" stroke-width="2.5" stroke-dasharray="6 3"/>`
    // a point for each week, so that a single week shows too
    + weeks.map((week, index) => `<circle cx="${x(index)}" cy="${y(week.first)}" r="3" fill="${INK}"/><circle cx="${x(index)}" cy="${y(week.second)}" r="3" fill="${SECOND}"/>`).join('')
    + '</svg>';
}
