/**
 * The cycle's dates and the reminders (schemas/deadlines.json, reminders.json, and the
 * banners that name a deadline): each file against its schema, then what a schema cannot
 * say: ids unique, deadlines in order and after the cycle opens, every deadline a banner or
 * rule names there, sending hours that hold some time, texts with only the placeholders
 * the server fills and with the login and unsubscribe links.
 */
import { REMINDER_PLACEHOLDERS, REQUIRED_REMINDER_PLACEHOLDERS } from '../../src/shared/deadlines/reminder-rules.ts';
import type { SchemaTree } from './load.ts';
import { checkAgainstMeta } from './meta.ts';
import { problem, type Problem } from './problems.ts';

type Json = Record<string, unknown>;

const isDate = (value: unknown): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

function duplicates(ids: unknown[]): string[] {
  const seen = new Set<unknown>();
  return [...new Set(ids.filter((id) => (seen.has(id) ? true : (seen.add(id), false))))].map(String);
}

export function checkCycle(tree: SchemaTree): Problem[] {
  const metaProblems = [
    ...checkAgainstMeta(tree, 'deadlines.json', 'meta/deadlines.schema.json', 'missing configuration'),
    ...checkAgainstMeta(tree, 'reminders.json', 'meta/reminders.schema.json', 'missing configuration'),
  ];
  if (metaProblems.length) return metaProblems;
  const problems: Problem[] = [];
  const dates = tree.files.get('deadlines.json') as { cycle: { opens: string }; deadlines: { id: string; date: string }[] };
  const reminders = tree.files.get('reminders.json') as { send_between: { from: string; until: string }; rules: Json[] };
  const ids = new Set(dates.deadlines.map((deadline) => deadline.id));

  for (const id of duplicates(dates.deadlines.map((deadline) => deadline.id))) {
    problems.push(problem('bad configuration', 'deadlines.json', id, 'two deadlines have this id', 'give each deadline its own id'));
  }
  for (const [index, deadline] of dates.deadlines.entries()) {
    if (!isDate(deadline.date)) {
      problems.push(problem('bad configuration', 'deadlines.json', deadline.id, `"${deadline.date}" is not a date`, 'write the date as YYYY-MM-DD'));
      continue;
    }
    if (deadline.date <= dates.cycle.opens) {
      problems.push(problem('bad configuration', 'deadlines.json', deadline.id, `the deadline ${deadline.date} is not after the cycle opens (${dates.cycle.opens})`, 'move the deadline, or cycle.opens'));
    }
    const before = dates.deadlines[index - 1];
    if (before && before.date >= deadline.date) {
      problems.push(problem('bad configuration', 'deadlines.json', deadline.id, `the deadlines are not in date order (${before.id} is ${before.date})`, 'list the deadlines from the earliest to the latest'));
    }
  }

  const banners = (tree.files.get('banners.json') as { banners?: Json[] } | undefined)?.banners ?? [];
  for (const banner of banners) {
    if (typeof banner.deadline === 'string' && !ids.has(banner.deadline)) {
      problems.push(problem('missing configuration', 'banners.json', String(banner.id), `names deadline "${banner.deadline}", which deadlines.json does not have`, `use one of: ${[...ids].join(', ')}`));
    }
  }

  if (reminders.send_between.from >= reminders.send_between.until) {
    problems.push(problem('bad configuration', 'reminders.json', 'send_between', `no time is between ${reminders.send_between.from} and ${reminders.send_between.until}`,
      'give "from" a time of day before "until", e.g. "09:00" and "20:00"'));
  }
  for (const id of duplicates(reminders.rules.map((rule) => rule.id))) {
    problems.push(problem('bad configuration', 'reminders.json', id, 'two rules have this id', 'give each rule its own id'));
  }
  for (const rule of reminders.rules) {
    const id = String(rule.id);
    for (const deadline of (rule.deadlines as string[] | undefined) ?? []) {
      if (!ids.has(deadline)) {
        problems.push(problem('missing configuration', 'reminders.json', id, `names deadline "${deadline}", which deadlines.json does not have`, `use one of: ${[...ids].join(', ')}`));
      }
    }
    for (const part of ['subject', 'text'] as const) {
      const text = String(rule[part]);
      const used = [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
      for (const name of used.filter((name) => !(REMINDER_PLACEHOLDERS as readonly string[]).includes(name))) {
        problems.push(problem('bad configuration', 'reminders.json', id, `its ${part} names {${name}}, which the server does not fill`, `use only ${REMINDER_PLACEHOLDERS.map((item) => `{${item}}`).join(', ')}`));
      }
      if (part === 'subject' && /[\r\n]/.test(text)) {
        problems.push(problem('bad configuration', 'reminders.json', id, 'its subject has a line break', 'write the subject on one line'));
      }
      if (part === 'text') {
        for (const name of REQUIRED_REMINDER_PLACEHOLDERS.filter((item) => !used.includes(item))) {
          problems.push(problem('missing configuration', 'reminders.json', id, `its text does not give {${name}}`, `put {${name}} in the text: every reminder must bring the applicant back and let them stop reminders`));
        }
      }
    }
  }
  return problems;
}
