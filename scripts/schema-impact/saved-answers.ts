/**
 * What a schema change does to the applications already under way: each saved answer is
 * checked against the page's rules as they were and as they are, and an answer that was
 * valid and no longer is, or whose question is gone, is counted against the change, per
 * application, in progress and submitted apart, with up to ten applications named. A
 * question added as required (or made required) is counted apart: the applications in
 * progress it will stop at Submit until they answer it, where the page shows it to them.
 */
import type { ValidateFunction } from 'ajv';
import { isAnswered, type Answers } from '../../src/shared/answers/conditions.ts';
import { hiddenKeys } from '../../src/shared/answers/visibility.ts';
import type { PageModel } from '../../src/shared/form/form-model.ts';
import { MAX_ANSWERS_PAGE } from '../../src/server/admin/data-operations.ts';
import type { SavedAnswer } from '../../src/server/db/repositories/answer-repository.ts';
import type { DataAccess } from '../lib/data-access.ts';
import type { GeneratedForm } from '../generate/form-model.ts';
import { createAjv } from '../generate/validators.ts';
import type { SchemaChange } from './compare-forms.ts';

export const EXAMPLES = 10;

export interface Affected {
  inProgress: number;
  submitted: number;
  /** applicant ids, at most EXAMPLES */
  examples: string[];
}

export interface SavedAnswersImpact {
  applications: { inProgress: number; submitted: number };
  /** by change, in the order of the changes given */
  byChange: Affected[];
  /** by change: the applications in progress it stops at Submit (a required answer they have not given) */
  stopsAtSubmit: Omit<Affected, 'submitted'>[];
}

/** The changes that can make an unanswered question required. */
const REQUIRING = new Set(['question added', 'rule tightened']);

type Form = Pick<GeneratedForm, 'model' | 'validation'>;

function validatorsOf(form: Form): Map<string, ValidateFunction> {
  const ajv = createAjv({ messages: false });
  return new Map(Object.entries(form.validation).map(([page, schema]) => [page, ajv.compile(schema)]));
}

/** Keys of `page` whose saved answer fails its rules (visible answers only, as the page validates). */
function failingKeys(validate: ValidateFunction | undefined, page: PageModel | undefined, answers: Answers): Set<string> {
  if (!validate || !page) return new Set();
  const hidden = hiddenKeys(page, answers);
  const visible: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(answers)) if (isAnswered(value) && !hidden.has(key)) visible[key] = value;
  if (validate(visible)) return new Set();
  const keys = new Set<string>();
  for (const error of validate.errors ?? []) {
    if (error.keyword === 'required') keys.add((error.params as { missingProperty: string }).missingProperty);
    else if (error.instancePath) keys.add(error.instancePath.slice(1));
  }
  return keys;
}

/** Does this change touch this application's saved answers? */
function touches(change: SchemaChange, answers: Answers, newlyFailing: Set<string>): boolean {
  switch (change.kind) {
    case 'question removed':
      return isAnswered(answers[change.key!]);
    case 'question renamed':
      return isAnswered(answers[change.from!]);
    case 'option removed':
      return change.codes!.includes(String(answers[change.key!]));
    case 'rule tightened':
    case 'rule changed':
      return newlyFailing.has(change.key!);
    case 'page removed':
      return false; // counted by its questions, each removed with it
    default:
      return false;
  }
}

/** The applications' saved answers, and which were submitted. */
export interface SavedAnswers {
  byApplicant: Map<string, Record<string, string | boolean>>;
  submitted: Set<string>;
}

/**
 * Reads every saved answer a page at a time, through the data access of the office's
 * commands: the running server's admin channel when one holds the embedded database,
 * else the database itself. Saves made meanwhile may or may not be counted.
 */
export async function readSavedAnswers(data: Pick<DataAccess, 'call'>, pageSize = MAX_ANSWERS_PAGE): Promise<SavedAnswers> {
  const byApplicant = new Map<string, Record<string, string | boolean>>();
  let after: [string, string] | null = null;
  for (;;) {
    const rows: SavedAnswer[] = (await data.call('answers.saved', { after: after as [string, string] | null, limit: pageSize })).rows;
    for (const [applicant, key, value] of rows) {
      let answers = byApplicant.get(applicant);
      if (!answers) byApplicant.set(applicant, (answers = {}));
      answers[key] = value;
    }
    if (rows.length < pageSize) break;
    const last: SavedAnswer = rows[rows.length - 1]!;
    after = [last[0], last[1]];
  }
  const { ids } = await data.call('applications.submitted', {});
  return { byApplicant, submitted: new Set(ids) };
}

export function savedAnswersImpact({ byApplicant, submitted }: SavedAnswers, before: Form, after: Form, changes: SchemaChange[]): SavedAnswersImpact {
  const oldValidators = validatorsOf(before), newValidators = validatorsOf(after);
  const oldPages = before.model.pages as Record<string, PageModel>, newPages = after.model.pages as Record<string, PageModel>;
  const byChange: Affected[] = changes.map(() => ({ inProgress: 0, submitted: 0, examples: [] }));
  const stopsAtSubmit = changes.map(() => ({ inProgress: 0, examples: [] as string[] }));
  const impact: SavedAnswersImpact = { applications: { inProgress: 0, submitted: 0 }, byChange, stopsAtSubmit };

  for (const [applicant, answers] of [...byApplicant].sort(([a], [b]) => a.localeCompare(b))) {
    const isSubmitted = submitted.has(applicant);
    impact.applications[isSubmitted ? 'submitted' : 'inProgress']++;
    const newlyFailing = new Set<string>();
    // required now and not given, by an application in progress: Submit will stop it there
    const newlyMissing = new Set<string>();
    for (const page of Object.keys(newPages)) {
      const was = failingKeys(oldValidators.get(page), oldPages[page], answers);
      for (const key of failingKeys(newValidators.get(page), newPages[page], answers)) {
        if (was.has(key)) continue;
        // a missing answer only counts against a submitted application: one in progress is simply not finished
        if (isAnswered(answers[key]) || isSubmitted) newlyFailing.add(key);
        else newlyMissing.add(key);
      }
    }
    changes.forEach((change, index) => {
      if (REQUIRING.has(change.kind) && newlyMissing.has(change.key!)) {
        const stopped = stopsAtSubmit[index]!;
        stopped.inProgress++;
        if (stopped.examples.length < EXAMPLES) stopped.examples.push(applicant);
      }
      if (!touches(change, answers, newlyFailing)) return;
      const affected = byChange[index]!;
      affected[isSubmitted ? 'submitted' : 'inProgress']++;
      if (affected.examples.length < EXAMPLES) affected.examples.push(applicant);
    });
  }
  return impact;
}
