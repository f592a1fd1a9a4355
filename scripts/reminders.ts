/**
 * `npm run reminders -- --dry-run [--at <time>]`: which reminder rule (schemas/reminders.json)
 * is due at that time (now by default) for which deadline (schemas/deadlines.json), and who
 * would get it, in which language, with the page each was last on. Nothing is recorded or
 * sent: the servers send reminders themselves, every few minutes. Uses DATABASE_URL, or the
 * embedded database (through the server when one runs on DATA_DIR, as the office's other
 * commands do: lib/data-access.ts). `--format json` prints the same as JSON.
 */
import { parseArgs } from 'node:util';
import { openDataAccess } from './lib/data-access.ts';
import { keepFilesPrivate } from '../src/server/lib/private-files.ts';

keepFilesPrivate();

const USAGE = 'usage: npm run reminders -- --dry-run [--at <ISO time, e.g. 2027-01-08T15:00Z>] [--format text|json]';
const { values } = parseArgs({
  options: { 'dry-run': { type: 'boolean', default: false }, at: { type: 'string' }, format: { type: 'string', default: 'text' } },
});
const at = values.at === undefined ? new Date() : new Date(values.at);
if (!values['dry-run'] || Number.isNaN(at.getTime()) || !['text', 'json'].includes(values.format!)) {
  console.error(USAGE);
  if (!values['dry-run']) console.error('Reminders are sent by the servers on their own; this command only shows what they would send.');
  process.exit(1);
}

const data = await openDataAccess('npm run reminders');
try {
  const plan = await data.call('reminders.plan', { at: at.toISOString() });
  if (values.format === 'json') {
    console.log(JSON.stringify(plan, null, 2));
  } else if (plan.nothing) {
    console.log(`At ${plan.at}: no reminder would go (${plan.nothing}${plan.rule ? `; rule ${plan.rule} for ${plan.deadline} is due` : ''}).`);
  } else {
    console.log(`At ${plan.at}: rule ${plan.rule} for ${plan.deadline} (${plan.deadline_date}, ${plan.days_left} days left) would go to ${plan.applicants.length} applicant${plan.applicants.length === 1 ? '' : 's'}:`);
    for (const applicant of plan.applicants) console.log(`  ${applicant.email}  ${applicant.language}  last on ${applicant.last_page ?? '(no page yet)'}`);
  }
} finally {
  await data.close();
}
