/**
 * The body of npm run schema:impact (scripts/schema-impact.ts), loaded once the generated
 * form is there: the comparison, the count of saved answers, the report and the exit code.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/server/config.ts';
import { currentSchemasDir } from '../schema-files.ts';
import { compareForms, unbumpedPages, type SchemaChange } from './compare-forms.ts';
import { compareFileItems, fileItemsImpact, type FileItemChange, type FileItemImpact } from './compare-file-items.ts';
import { compareReminders, type ReminderChange } from './compare-reminders.ts';
import { formOf, schemasAt } from './form-at.ts';
import { openDataAccess } from '../lib/data-access.ts';
import { readSavedAnswers, savedAnswersImpact, type SavedAnswersImpact } from './saved-answers.ts';

const USAGE = 'usage: npm run schema:impact -- <git revision> [--format text|json] [--no-database]';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { format: { type: 'string', default: 'text' }, 'no-database': { type: 'boolean', default: false } },
});
if (positionals.length !== 1 || !['text', 'json'].includes(values.format!)) {
  console.error(USAGE);
  process.exit(2);
}

let revision: ReturnType<typeof schemasAt>;
try {
  revision = schemasAt(positionals[0]!, process.cwd());
} catch (error) {
  console.error(`schema:impact: ${(error as Error).message}`);
  process.exit(2);
}

let impact: SavedAnswersImpact | undefined;
let changes: SchemaChange[];
let unbumped: ReturnType<typeof unbumpedPages>;
let reminderChanges: ReminderChange[];
let fileItemChanges: FileItemChange[];
let fileImpact: (FileItemImpact | undefined)[] | undefined;
try {
  reminderChanges = compareReminders(revision.dir, currentSchemasDir());
  fileItemChanges = compareFileItems(revision.dir, currentSchemasDir());
  const before = formOf(revision.dir);
  const after = formOf(currentSchemasDir());
  changes = compareForms(before, after);
  unbumped = unbumpedPages(before, after, changes);
  const config = loadConfig();
  const embedded = existsSync(join(config.dataDir, 'pgdata'));
  if (!values['no-database'] && (config.databaseUrl || embedded)) {
    // beside a running server on the embedded database, its admin channel reads the answers
    const data = await openDataAccess('npm run schema:impact');
    try {
      const saved = await readSavedAnswers(data);
      impact = savedAnswersImpact(saved, before, after, changes);
      fileImpact = fileItemsImpact(saved, revision.dir, currentSchemasDir(), fileItemChanges);
    } finally {
      await data.close();
    }
  }
} finally {
  revision.remove();
}

if (values.format === 'json') {
  console.log(JSON.stringify({
    revision: positionals[0],
    changes: changes.map((change, index) => ({ ...change, ...(impact ? { affected: impact.byChange[index], stops_at_submit: impact.stopsAtSubmit[index] } : {}) })),
    applications: impact?.applications ?? null,
    unbumped_pages: unbumped,
    reminder_changes: reminderChanges,
    file_item_changes: fileItemChanges.map((change, index) => ({ ...change, ...(fileImpact?.[index] ? { submitted_files: fileImpact[index] } : {}) })),
  }, null, 2));
} else {
  console.log(changes.length ? `Schema changes since ${positionals[0]}:` : `No change to the form since ${positionals[0]}.`);
  for (const page of [...new Set(changes.map((change) => change.page))]) {
    console.log(`  Page ${page}:`);
    changes.forEach((change, index) => {
      if (change.page !== page) return;
      const affected = impact?.byChange[index];
      const counted = affected && (affected.inProgress || affected.submitted)
        ? ` (saved answers affected: ${affected.inProgress} in progress, ${affected.submitted} submitted; e.g. ${affected.examples.join(', ')})`
        : '';
      const stopped = impact?.stopsAtSubmit[index];
      const stops = stopped?.inProgress
        ? ` (stops ${stopped.inProgress} application${stopped.inProgress === 1 ? '' : 's'} in progress at Submit until answered; e.g. ${stopped.examples.join(', ')})`
        : '';
      console.log(`    ${change.breaking ? 'BREAKING ' : ''}${change.kind}: ${change.detail}${counted}${stops}`);
    });
  }
  if (reminderChanges.length) {
    console.log(`Reminders and deadlines since ${positionals[0]} (no saved answer is affected; npm run reminders -- --dry-run shows who is mailed next):`);
    for (const change of reminderChanges) console.log(`    ${change.kind}: ${change.detail}`);
  }
  if (fileItemChanges.length) {
    console.log(`Application file items since ${positionals[0]} (schemas/file-items.json; no saved answer is affected):`);
    fileItemChanges.forEach((change, index) => {
      const files = fileImpact?.[index];
      const counted = files
        ? ` (submitted files changed: ${files.nowRequired} now need it, ${files.noLongerRequired} no longer do${files.examples.length ? `; e.g. ${files.examples.join(', ')}` : ''})`
        : '';
      console.log(`    ${change.breaking ? 'BREAKING ' : ''}${change.kind}: ${change.detail}${counted}`);
    });
  }
  if (impact) console.log(`Applications checked: ${impact.applications.inProgress} in progress, ${impact.applications.submitted} submitted.`);
  else console.log('No database checked (set DATABASE_URL, or DATA_DIR for the embedded one): counts of affected applications are not shown.');
}
for (const page of unbumped) {
  console.error(`schema:impact: page "${page.page}" has changes that can orphan or invalidate saved answers, but its "version" is still ${page.version}. ` +
    `Raise "version" to ${page.version + 1} in ${page.file} once you have read what happens to those answers (schemas/README.md, "When a change affects saved answers").`);
}
if (unbumped.length) process.exitCode = 1;
