/**
 * npm run check:schemas — the development-only checks of spec section 5 on schemas/
 * (or SCHEMAS_DIR): data-model keys, extra keys, keys on two pages, prefixes, add-another
 * maximum, missing configuration. Exit code 1 with one line per problem (file, key, fix),
 * 0 with a one-line summary. Warnings are printed but do not fail.
 */
import { formatProblem, runSchemaCheck, type Problem } from './schema-check/index.ts';

function group(problems: Problem[], label: (kind: string) => string): string[] {
  const lines: string[] = [];
  const kinds = [...new Set(problems.map((item) => item.kind))];
  for (const kind of kinds) {
    lines.push(label(kind));
    for (const item of problems.filter((entry) => entry.kind === kind)) lines.push(`  ${formatProblem(item)}`);
  }
  return lines;
}

const started = performance.now();
let result: ReturnType<typeof runSchemaCheck>;
try {
  result = runSchemaCheck();
} catch (error) {
  console.error(`check:schemas could not finish: ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
}
const ms = Math.round(performance.now() - started);
const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

if (result.warnings.length) {
  console.warn(group(result.warnings, (kind) => `WARNING- ${kind.toUpperCase()}`).join('\n'));
}
if (result.errors.length) {
  console.error(group(result.errors, (kind) => `ERROR- ${kind.toUpperCase()}`).join('\n'));
  console.error(`check:schemas failed: ${count(result.errors.length, 'error')}, ${count(result.warnings.length, 'warning')}` +
    (result.formBuilt ? '' : ' (the form was not built; fix these first, then run again for the checks on the built form)'));
  process.exitCode = 1;
} else {
  console.log(`check:schemas OK: ${count(result.pages, 'page')}, ${count(result.keys, 'answer key')}, ${count(result.warnings.length, 'warning')} (${ms} ms)`);
}
