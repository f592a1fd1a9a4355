/**
 * The three ways check:schemas reports: text for the staff member at a terminal, JSON for
 * tools, and GitHub workflow commands (one annotation per problem, on its file, line and
 * column) so a pull request shows each problem on the line that caused it.
 */
import { formatProblem, type Problem, type SchemaCheckResult } from './index.ts';
import { SourceLocator, type SourcePosition } from './source-positions.ts';

export const REPORT_FORMATS = ['text', 'json', 'github'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface Report {
  stdout: string[];
  stderr: string[];
}

/** A problem with its line and column, and the file they are in (its own file, or where `at` points). */
type Located = Problem & Partial<SourcePosition> & { sourceFile: string };

function locateAll(problems: Problem[], locator: SourceLocator): Located[] {
  return problems.map((item) => {
    const position = item.at ? locator.locate(item.at.file, item.key, item.at.path) : locator.locate(item.file, item.key);
    return { ...item, ...position, sourceFile: position && item.at ? item.at.file : item.file };
  });
}

/** `schemas/pages/about.schema.json:12:7: "key": message. Fix: ...`: the file as editors and terminals link it. */
function formatLocated(item: Located): string {
  const text = formatProblem(item);
  if (!item.line) return text;
  const prefix = `schemas/${item.file}: `;
  const rest = text.startsWith(prefix) ? text.slice(prefix.length) : text;
  return `schemas/${item.sourceFile}:${item.line}:${item.column}: ${rest}`;
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function group(problems: Located[], label: (kind: string) => string): string[] {
  const lines: string[] = [];
  for (const kind of new Set(problems.map((item) => item.kind))) {
    lines.push(label(kind));
    for (const item of problems.filter((entry) => entry.kind === kind)) lines.push(`  ${formatLocated(item)}`);
  }
  return lines;
}

function textReport(result: SchemaCheckResult, locator: SourceLocator, ms: number): Report {
  const report: Report = { stdout: [], stderr: [] };
  if (result.warnings.length) report.stderr.push(...group(locateAll(result.warnings, locator), (kind) => `WARNING- ${kind.toUpperCase()}`));
  if (result.errors.length) {
    report.stderr.push(...group(locateAll(result.errors, locator), (kind) => `ERROR- ${kind.toUpperCase()}`));
    report.stderr.push(`check:schemas failed: ${count(result.errors.length, 'error')}, ${count(result.warnings.length, 'warning')}` +
      (result.formBuilt ? '' : ' (the form was not built; fix these first, then run again for the checks on the built form)'));
  } else {
    report.stdout.push(`check:schemas OK: ${count(result.pages, 'page')}, ${count(result.keys, 'answer key')}, ${count(result.warnings.length, 'warning')} (${ms} ms)`);
  }
  return report;
}

function jsonReport(result: SchemaCheckResult, locator: SourceLocator): Report {
  // `sourceFile` is the file `line` and `column` are in: the problem's own, or the English file of a missing translation
  const withPath = ({ at: _at, ...item }: Located) => ({ ...item, file: `schemas/${item.file}`, sourceFile: `schemas/${item.sourceFile}` });
  return {
    stdout: [JSON.stringify({
      ok: result.errors.length === 0,
      pages: result.pages,
      keys: result.keys,
      formBuilt: result.formBuilt,
      errors: locateAll(result.errors, locator).map(withPath),
      warnings: locateAll(result.warnings, locator).map(withPath),
    }, null, 2)],
    stderr: [],
  };
}

/** GitHub's escaping for workflow commands: the message and the property values differ. */
const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

function annotation(level: 'error' | 'warning', item: Located): string {
  const properties = [`file=${escapeProperty(`schemas/${item.sourceFile}`)}`];
  if (item.line) properties.push(`line=${item.line}`, `col=${item.column}`);
  properties.push(`title=${escapeProperty(`check:schemas: ${item.kind}`)}`);
  return `::${level} ${properties.join(',')}::${escapeData(formatProblem(item))}`;
}

function githubReport(result: SchemaCheckResult, locator: SourceLocator, ms: number): Report {
  const text = textReport(result, locator, ms);
  return {
    stdout: [
      ...locateAll(result.errors, locator).map((item) => annotation('error', item)),
      ...locateAll(result.warnings, locator).map((item) => annotation('warning', item)),
      ...text.stdout,
    ],
    stderr: text.stderr.slice(-1).filter(() => result.errors.length > 0),
  };
}

export function buildReport(format: ReportFormat, result: SchemaCheckResult, schemasDir: string, ms: number): Report {
  const locator = new SourceLocator(schemasDir);
  if (format === 'json') return jsonReport(result, locator);
  if (format === 'github') return githubReport(result, locator, ms);
  return textReport(result, locator, ms);
}
