/**
 * npm run check:schemas — the development-only checks of spec section 5 on schemas/
 * (or SCHEMAS_DIR): data-model keys, extra keys, keys on two pages, prefixes, add-another
 * maximum, missing configuration. Exit code 1 when there is an error, 0 otherwise;
 * warnings are reported but do not fail.
 *
 * --format text (default): one line per problem (file, key, fix) for a person.
 * --format json: every problem with its line and column, for tools.
 * --format github: one workflow annotation per problem, on its file, line and column.
 */
import { parseArgs } from 'node:util';
import { currentSchemasDir } from './schema-files.ts';
import { runSchemaCheck } from './schema-check/index.ts';
import { buildReport, REPORT_FORMATS, type ReportFormat } from './schema-check/report-formats.ts';

const { values } = parseArgs({ options: { format: { type: 'string', default: 'text' } } });
if (!REPORT_FORMATS.includes(values.format as ReportFormat)) {
  console.error(`check:schemas: --format must be one of ${REPORT_FORMATS.join(', ')} (got "${values.format}")`);
  process.exit(2);
}

const started = performance.now();
let result: ReturnType<typeof runSchemaCheck>;
try {
  result = runSchemaCheck();
} catch (error) {
  console.error(`check:schemas could not finish: ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
}
const report = buildReport(values.format as ReportFormat, result, currentSchemasDir(), Math.round(performance.now() - started));
if (report.stderr.length) console.error(report.stderr.join('\n'));
if (report.stdout.length) console.log(report.stdout.join('\n'));
if (result.errors.length) process.exitCode = 1;
