/**
 * The application file's checklist (schemas/file-items.json): which items an applicant's
 * file needs, given their answers; whether the file is complete; and the day a decision is
 * due. One module for the server (which decides completeness), the applicant's pages, the
 * staff views and the PDF copy, so that they never disagree.
 */
import fileItems from '../../../schemas/file-items.json';
import partner from '../../../schemas/partner.json';
import { evaluateCondition, type Answers, type Condition } from '../answers/conditions.ts';
import { localDate } from '../dates/local-date.ts';

export type FileItemState = 'missing' | 'requested' | 'received' | 'waived';
export type ItemProvider = 'counselor' | 'applicant' | 'office';
export const FILE_ITEM_STATES: readonly FileItemState[] = ['missing', 'requested', 'received', 'waived'];

export interface FileItemRule {
  id: string;
  title: string;
  description: string;
  provided_by: readonly ItemProvider[];
  required: boolean;
  required_when?: Condition;
}

/** What is stored of an item (no row: missing). */
export interface StoredItemState {
  item_id: string;
  state: Exclude<FileItemState, 'missing'>;
  changed_at: Date | string;
}

export interface ChecklistItem {
  id: string;
  /** required for this applicant now (the rule's `required`, and its `required_when` on their answers) */
  required: boolean;
  state: FileItemState;
  changed_at: string | null;
  provided_by: ItemProvider[];
}

export const ITEM_RULES = fileItems.items as readonly FileItemRule[];

export function itemRule(id: string): FileItemRule | undefined {
  return ITEM_RULES.find((rule) => rule.id === id);
}

/** Whether the item is required of an applicant with these answers. */
export function isRequired(rule: FileItemRule, answers: Answers): boolean {
  return rule.required && (rule.required_when === undefined || evaluateCondition(answers, rule.required_when));
}

/** Every item of the file, in the schema's order, with this applicant's states. */
export function checklistOf(answers: Answers, stored: readonly StoredItemState[]): ChecklistItem[] {
  return ITEM_RULES.map((rule) => {
    const row = stored.find((entry) => entry.item_id === rule.id);
    const changed = row ? new Date(row.changed_at).toISOString() : null;
    return { id: rule.id, required: isRequired(rule, answers), state: row?.state ?? 'missing', changed_at: changed, provided_by: [...rule.provided_by] };
  });
}

/** Complete: every required item is received or waived. */
export function isComplete(items: readonly ChecklistItem[]): boolean {
  return items.every((item) => !item.required || item.state === 'received' || item.state === 'waived');
}

/**
 * The day (YYYY-MM-DD, the partner's calendar) by which a decision is due: `decision_days`
 * after the day the file became complete, counted in the partner's time zone.
 */
export function decisionDue(completeAt: Date): string {
  const day = localDate(completeAt, partner.time_zone);
  const due = new Date(`${day}T12:00:00Z`);
  due.setUTCDate(due.getUTCDate() + fileItems.decision_days);
  return due.toISOString().slice(0, 10);
}
