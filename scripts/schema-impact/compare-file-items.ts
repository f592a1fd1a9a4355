/**
 * What a change to the application file's items (schemas/file-items.json, its Spanish)
 * does, in staff's words: each item added, removed, renamed or changed, and how. An item's
 * state is stored by its id, so a removed or renamed id is breaking: the states stored
 * under the old id no longer belong to any item. A change to whether an item is required
 * (`required`, `required_when`) changes which files are complete; with the saved answers
 * at hand, `fileItemsImpact` names the submitted applications whose file it changes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Answers, Condition } from '../../src/shared/answers/conditions.ts';
import { isRequired, type FileItemRule } from '../../src/shared/file-items/checklist.ts';
import { EXAMPLES, type SavedAnswers } from './saved-answers.ts';

export interface FileItemChange {
  kind: 'item added' | 'item removed' | 'item renamed' | 'item changed' | 'item requirement changed' | 'file settings changed';
  /** the item's id (its new id when renamed) */
  id: string;
  /** a renamed item's old id */
  from?: string;
  breaking: boolean;
  detail: string;
}

type Item = FileItemRule & { counselor_request?: { subject: string; text: string } };
type File = { items: Item[]; decision_days?: number; counselor_link_days?: number; counselor_requests_per_day?: number };

const read = (dir: string, file: string): File | undefined => (existsSync(join(dir, file)) ? JSON.parse(readFileSync(join(dir, file), 'utf8')) as File : undefined);
const byId = (file: File | undefined) => new Map((file?.items ?? []).map((item) => [item.id, item]));

/** A condition in words: `test_optional is "Y"`. */
export function conditionInWords(condition: Condition): string {
  if ('all' in condition) return condition.all.map(conditionInWords).join(' and ');
  if ('any' in condition) return `(${condition.any.map(conditionInWords).join(' or ')})`;
  const value = JSON.stringify(condition.value);
  switch (condition.op) {
    case 'equals': return `${condition.key} is ${value}`;
    case 'notEquals': return `${condition.key} is not ${value}`;
    case 'in': return `${condition.key} is one of ${value}`;
    case 'notIn': return `${condition.key} is none of ${value}`;
    case 'answered': return `${condition.key} is answered`;
    case 'notAnswered': return `${condition.key} is not answered`;
    case 'lt': return `${condition.key} < ${value}`;
    case 'lte': return `${condition.key} <= ${value}`;
    case 'gt': return `${condition.key} > ${value}`;
    case 'gte': return `${condition.key} >= ${value}`;
  }
}

/** Whether an item is required, in words: "required", "optional", "required when test_optional is "Y"". */
export function requirementInWords(item: Pick<FileItemRule, 'required' | 'required_when'>): string {
  if (!item.required) return 'optional';
  return item.required_when ? `required when ${conditionInWords(item.required_when)}` : 'required';
}

const providers = (item: Item) => item.provided_by.join(', ');

export function compareFileItems(beforeDir: string, afterDir: string): FileItemChange[] {
  const before = read(beforeDir, 'file-items.json');
  const after = read(afterDir, 'file-items.json');
  const was = byId(before);
  const now = byId(after);
  const wasEs = byId(read(beforeDir, 'i18n/es/file-items.json'));
  const nowEs = byId(read(afterDir, 'i18n/es/file-items.json'));
  const changes: FileItemChange[] = [];

  const added = [...now.values()].filter((item) => !was.has(item.id));
  const removed = [...was.values()].filter((item) => !now.has(item.id));
  // an id gone and one come with the same title (or description) is the same item renamed
  for (const old of [...removed]) {
    const renamed = added.find((item) => item.title === old.title || item.description === old.description);
    if (!renamed) continue;
    removed.splice(removed.indexOf(old), 1);
    added.splice(added.indexOf(renamed), 1);
    changes.push({ kind: 'item renamed', id: renamed.id, from: old.id, breaking: true,
      detail: `"${old.id}" is now "${renamed.id}": the states stored under "${old.id}" (received, waived, requested) no longer count, and the office's systems know the old id` });
  }
  for (const item of added) {
    changes.push({ kind: 'item added', id: item.id, breaking: false, detail: `"${item.id}" (${item.title}): ${requirementInWords(item)}, provided by ${providers(item)}` });
  }
  for (const item of removed) {
    changes.push({ kind: 'item removed', id: item.id, breaking: true,
      detail: `"${item.id}" (${item.title}): the states stored under it no longer count, and the office's systems still send its id` });
  }
  for (const [id, item] of now) {
    const old = was.get(id);
    if (!old) continue;
    if (requirementInWords(old) !== requirementInWords(item)) {
      changes.push({ kind: 'item requirement changed', id, breaking: false,
        detail: `"${id}": now ${requirementInWords(item)} (was ${requirementInWords(old)}): it changes which files are complete` });
    }
    const differences: string[] = [];
    if (providers(old) !== providers(item)) differences.push(`now provided by ${providers(item)} (was ${providers(old)})`);
    if (old.title !== item.title) differences.push(`its title is now "${item.title}" (was "${old.title}")`);
    if (old.description !== item.description) differences.push('its English description changed');
    if (JSON.stringify(old.counselor_request) !== JSON.stringify(item.counselor_request)) {
      differences.push(!item.counselor_request ? 'counselors can no longer be asked for it' : !old.counselor_request ? 'counselors can now be asked for it' : 'its English mail to counselors changed');
    }
    if (JSON.stringify(wasEs.get(id)) !== JSON.stringify(nowEs.get(id))) differences.push('its Spanish changed');
    if (differences.length) changes.push({ kind: 'item changed', id, breaking: false, detail: `"${id}": ${differences.join('; ')}` });
  }
  const settings = (file: File | undefined) => file && `decision due ${file.decision_days} days after the file is complete, counselor links work ${file.counselor_link_days} days, ${file.counselor_requests_per_day ?? 'unlimited'} counselor requests a day`;
  if (before && after && settings(before) !== settings(after)) {
    changes.push({ kind: 'file settings changed', id: '', breaking: false, detail: `now ${settings(after)} (was ${settings(before)})` });
  }
  return changes;
}

/** By change: the submitted applications whose file now needs the item, or no longer does. */
export interface FileItemImpact {
  nowRequired: number;
  noLongerRequired: number;
  /** applicant ids, at most EXAMPLES */
  examples: string[];
}

/**
 * For each requirement change, the submitted applications (the only ones with a file) for
 * which the item's being required flips on their saved answers; other changes get none.
 */
export function fileItemsImpact({ byApplicant, submitted }: SavedAnswers, beforeDir: string, afterDir: string, changes: FileItemChange[]): (FileItemImpact | undefined)[] {
  const was = byId(read(beforeDir, 'file-items.json'));
  const now = byId(read(afterDir, 'file-items.json'));
  return changes.map((change) => {
    if (change.kind !== 'item requirement changed') return undefined;
    const old = was.get(change.id)!, rule = now.get(change.id)!;
    const impact: FileItemImpact = { nowRequired: 0, noLongerRequired: 0, examples: [] };
    for (const applicant of [...submitted].sort()) {
      const answers: Answers = byApplicant.get(applicant) ?? {};
      const before = isRequired(old, answers), after = isRequired(rule, answers);
      if (before === after) continue;
      impact[after ? 'nowRequired' : 'noLongerRequired']++;
      if (impact.examples.length < EXAMPLES) impact.examples.push(applicant);
    }
    return impact;
  });
}
