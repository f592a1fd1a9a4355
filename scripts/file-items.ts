/**
 * The application file from the office's desk (docs/operations/office-export-and-staff-links.md):
 *   npm run file-items -- show <email>                                          each item's state
 *   npm run file-items -- mark <email> <item> received|waived|missing [--note <text>] [--by <name>]
 *   npm run file-items -- import <file.csv> [--dry-run] [--by <name>]           a batch: email,item,state,note
 * Every change goes through the file-items service (its webhook event, the file's completion
 * and its mail), recorded as made by `command:<--by, else the OS user>`. An import checks every
 * row first and writes nothing if one is wrong (or with --dry-run), then marks row by row.
 * Uses DATABASE_URL, or the embedded database: through the server when one runs on DATA_DIR.
 */
import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { ITEM_RULES } from '../src/shared/file-items/checklist.ts';
import { MAX_MARKS_PER_CALL } from '../src/server/admin/data-operations.ts';
import { OFFICE_ITEM_STATES } from '../src/server/file-items/office-file.ts';
import { keepFilesPrivate } from '../src/server/lib/private-files.ts';
import { openDataAccess } from './lib/data-access.ts';
import { readCsv } from './lookups/csv-lines.ts';

keepFilesPrivate();

const USAGE = `usage: npm run file-items -- show <email>
       npm run file-items -- mark <email> <item> ${OFFICE_ITEM_STATES.join('|')} [--note <text>] [--by <name>]
       npm run file-items -- import <file.csv> [--dry-run] [--by <name>]   (header: email,item,state,note)
items: ${ITEM_RULES.map((rule) => rule.id).join(', ')}`;
const COLUMNS = ['email', 'item', 'state', 'note'];
const MAX_NOTE = 500;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { by: { type: 'string' }, note: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } },
});
const [command, ...rest] = positionals;
const who = (values.by ?? userInfo().username).trim();
const arity: Record<string, number> = { show: 1, mark: 3, import: 1 };
if (!command || arity[command] !== rest.length || !who || who.length > 100) {
  console.error(USAGE);
  process.exit(1);
}
const by = `command:${who}`;

interface Row { line: number; email: string; item: string; state: string; note: string }

/** What is wrong with a row, before anything is written: item, state and note here, the address by the database. */
function rowProblems(row: Row): string[] {
  const problems: string[] = [];
  if (!row.email) problems.push('no e-mail address');
  if (!ITEM_RULES.some((rule) => rule.id === row.item)) problems.push(`unknown item "${row.item}" (items: ${ITEM_RULES.map((rule) => rule.id).join(', ')})`);
  if (!(OFFICE_ITEM_STATES as readonly string[]).includes(row.state)) problems.push(`unknown state "${row.state}" (${OFFICE_ITEM_STATES.join(', ')})`);
  if (row.note.length > MAX_NOTE) problems.push(`a note longer than ${MAX_NOTE} characters`);
  return problems;
}

const data = await openDataAccess('npm run file-items');
const when = (date: string | null) => (date ? date.replace(/\.\d+Z$/, 'Z') : '');

async function show(email: string): Promise<boolean> {
  const file = await data.call('file-items.show', { email });
  if (!file) {
    console.error(`No applicant with the e-mail address ${email}.`);
    return false;
  }
  console.log(`${file.email}  ${file.applicant_id}  ${file.submitted ? 'submitted' : 'not submitted'}  ${file.complete_at ? `file complete ${when(file.complete_at)}, decision due ${file.decision_due}` : 'file not complete'}`);
  for (const item of file.items) {
    const changed = item.changed_at ? `  ${when(item.changed_at)} by ${item.changed_by}` : '';
    console.log(`  ${item.id.padEnd(26)} ${(item.required ? 'required' : 'optional').padEnd(9)} ${item.state.padEnd(9)}${changed}${item.note ? `  "${item.note}"` : ''}`);
  }
  return true;
}

/** Checks every row, then marks them in order; false when a row was refused. */
async function apply(rows: Row[], dryRun: boolean): Promise<boolean> {
  const problems = new Map<number, string[]>();
  for (const row of rows) {
    const found = rowProblems(row);
    if (found.length) problems.set(row.line, found);
  }
  const { found } = await data.call('file-items.applicants', { emails: rows.map((row) => row.email).filter(Boolean) });
  for (const row of rows) {
    if (row.email && !found[row.email.toLowerCase()]) problems.set(row.line, [`no applicant with the e-mail address ${row.email}`, ...(problems.get(row.line) ?? [])]);
  }
  if (problems.size) {
    for (const [line, messages] of [...problems].sort(([a], [b]) => a - b)) console.error(`${line ? `line ${line}: ` : ''}${messages.join('; ')}`);
    console.error(rows.length === 1 && !rows[0]!.line ? 'Nothing was written.' : `${problems.size} of ${rows.length} rows refused: nothing was written.`);
    return false;
  }
  if (dryRun) {
    console.log(`${rows.length} rows checked, all good; nothing written (--dry-run).`);
    return true;
  }
  let changed = 0, unchanged = 0, completed = 0, failed = 0;
  for (let at = 0; at < rows.length; at += MAX_MARKS_PER_CALL) {
    const slice = rows.slice(at, at + MAX_MARKS_PER_CALL);
    const { results } = await data.call('file-items.mark', {
      by, rows: slice.map((row) => ({ applicantId: found[row.email.toLowerCase()], item: row.item, state: row.state, note: row.note || null })),
    });
    results.forEach((result, index) => {
      const row = slice[index]!;
      if ('error' in result) {
        failed++;
        console.error(`${row.line ? `line ${row.line}: ` : ''}${result.error}`);
      } else if (result.changed) {
        changed++;
        if (result.complete_at && row.state !== 'missing') completed++;
      } else unchanged++;
    });
  }
  if (rows.length === 1 && !rows[0]!.line) console.log(changed ? 'Changed.' : failed ? '' : 'Already so: nothing changed.');
  else console.log(`${rows.length} rows: ${changed} changed, ${unchanged} already so, ${failed} refused.${completed ? ` Files complete after a change: ${completed}.` : ''}`);
  return failed === 0;
}

let ok = false;
try {
  if (command === 'show') ok = await show(rest[0]!);
  else if (command === 'mark') {
    const [email, item, state] = rest as [string, string, string];
    ok = await apply([{ line: 0, email, item, state, note: values.note ?? '' }], false) && await show(email);
  } else {
    const csv = readCsv(await readFile(rest[0]!, 'utf8'));
    const missing = COLUMNS.slice(0, 3).filter((column) => !csv.header.includes(column));
    if (missing.length) {
      console.error(`line 1: the header must name ${COLUMNS.join(',')} (missing: ${missing.join(', ')})`);
    } else {
      const broken = csv.lines.filter((line) => 'error' in line);
      for (const line of broken) console.error(`line ${line.line}: ${(line as { error: string }).error}`);
      const rows = csv.lines.flatMap((line) => ('fields' in line ? [{
        line: line.line, email: line.fields.email ?? '', item: line.fields.item ?? '', state: (line.fields.state ?? '').toLowerCase(), note: line.fields.note ?? '',
      }] : []));
      if (broken.length) console.error(`${broken.length} lines cannot be read: nothing was written.`);
      else if (!rows.length) console.error('The file has no rows after its header.');
      else ok = await apply(rows, values['dry-run']);
    }
  }
} catch (error) {
  console.error((error as Error).message);
} finally {
  await data.close();
}
process.exitCode = ok ? 0 : 1;
