import dataModel from '../../../schemas/data-model.json';
import partner from '../../../schemas/partner.json';
import exportText from '../../../schemas/text/export.json';
import { descKey, DESC_SUFFIX, instanceKey } from '../../shared/answers/key-naming.ts';
import { optionLabelsOf } from '../../shared/answers/option-rules.ts';
import { checklistOf, decisionDue, isComplete, ITEM_RULES, type StoredItemState } from '../../shared/file-items/checklist.ts';
import { form } from '../../shared/form/form-model-data.ts';
import type { DataModel } from '../../shared/generated/types.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import type { ExportedDocument } from './document-columns.ts';

/** One application as the export reads it. */
export interface ExportRecord {
  id: string;
  email: string;
  /** the language the applicant chose; answers and labels are the same in every language */
  language: string;
  webStatus: string;
  submittedAt: string | null;
  statusHistory: { status: string; at: string }[];
  answers: Record<string, string | boolean>;
  /** converted uploads by answer key */
  documents: Record<string, ExportedDocument>;
  /** the application file's stored item states (no entry: missing), change times as ISO text */
  fileItems: StoredItemState[];
  /** when the file became complete (applicants.file_complete_at), ISO */
  fileCompleteAt: string | null;
}

export type CellValue = string | number | boolean | null | { status: string; at: string }[];

/** What the labels file says of a column: the question's label, and where the form asks it. */
export interface ColumnLabel {
  label: string;
  section: string;
  page: string;
}

export interface ExportColumn {
  name: string;
  value(record: ExportRecord): CellValue;
  label: ColumnLabel;
}

/** Every answer key of the data model with its type, repeated keys written out, in the data model's order. */
export function dataModelKeys(): { key: string; type: string }[] {
  const keys: { key: string; type: string }[] = [];
  for (const [key, entry] of Object.entries((dataModel as DataModel).keys)) {
    if (!entry) continue;
    for (let n = 1; n <= (entry.instances ?? 1); n++) keys.push({ key: instanceKey(key, entry.prefix ?? key, n), type: entry.type });
  }
  return keys;
}

/** The section (and page) whose questions include `key`, by title. */
const whereAsked = (() => {
  const found = new Map<string, { section: string; page: string }>();
  for (const page of form.pageOrder) {
    for (const section of form.pages[page].sections) {
      for (const key of section.keys) found.set(key, { section: section.title, page: form.pages[page].title });
    }
  }
  return (key: string) => found.get(key) ?? { section: '', page: form.fields[key] ? form.pages[form.fields[key].page].title : '' };
})();

const partnerFilled = (text: string) => fillTemplate(text, { partner: partner.name, short_name: partner.short_name, n: '' });

/** A question's label in the labels file; `template` says what a derived column holds of it. */
function labelOf(key: string, template = '{label}'): ColumnLabel {
  const title = form.fields[key]?.title;
  const label = title === undefined ? fillTemplate(exportText.removed, { key }) : fillTemplate(template, { label: partnerFilled(title) });
  return { label, ...whereAsked(key) };
}

const isCoded = (key: string, type: string) => type === 'code' || Boolean(form.fields[key]?.options || form.fields[key]?.years);

/**
 * The label of a coded answer from its option list (the lists the service view and PDF
 * show, through the same optionsFor), else the label stored with it. No option rule narrows a
 * list here, so one value-to-label map serves every row.
 */
export function optionLabels(key: string): (answers: Record<string, string | boolean>) => string | null {
  const labels = optionLabelsOf(form, key);
  return (answers) => {
    const value = answers[key];
    if (value === undefined || value === '') return null;
    const stored = answers[descKey(key)];
    return labels.get(String(value)) ?? (typeof stored === 'string' ? stored : null);
  };
}

/** The time the file became complete, while it still is (an item taken back since makes it incomplete). */
function fileCompleteAt(record: ExportRecord): string | null {
  return record.fileCompleteAt && isComplete(checklistOf(record.answers, record.fileItems)) ? record.fileCompleteAt : null;
}

/**
 * The export's columns: the application's own six, the application file's (file_complete_at,
 * decision_due, and each item's `<item>_state` and `<item>_changed_at`), then one per answer key of the data
 * model in its order, each coded one followed by `<key>_desc` with its option's label and
 * each document by its file's name, size and copy (`<key>_file_name`, `_file_size`, `_file_path`);
 * then keys still stored but no longer in the data model (removed this cycle), sorted, so
 * an office's import mapping survives a schema edit. `otherStoredKeys`: stored keys the
 * data model does not list (export-repository otherStoredKeys).
 */
export function exportColumns(otherStoredKeys: readonly string[]): ExportColumn[] {
  const own = (name: keyof typeof exportText.columns, value: ExportColumn['value']): ExportColumn => ({
    name, value, label: { label: exportText.columns[name], section: '', page: '' },
  });
  const fixed: ExportColumn[] = [
    own('applicant_id', (record) => record.id),
    own('email', (record) => record.email),
    own('web_status', (record) => record.webStatus),
    own('submitted_at', (record) => record.submittedAt),
    own('status_history', (record) => record.statusHistory),
    own('language', (record) => record.language),
    // the application file: complete while every required item is in, as the applicant and the office API see it
    own('file_complete_at', (record) => fileCompleteAt(record)),
    own('decision_due', (record) => {
      const at = fileCompleteAt(record);
      return at ? decisionDue(new Date(at)) : null;
    }),
    ...ITEM_RULES.flatMap((rule) => {
      const column = rule.id.replaceAll('-', '_');
      const item = (record: ExportRecord) => record.fileItems.find((entry) => entry.item_id === rule.id);
      return [
        { name: `${column}_state`, value: (record: ExportRecord) => item(record)?.state ?? 'missing', label: { label: fillTemplate(exportText.item_state, { item: rule.title }), section: '', page: '' } },
        { name: `${column}_changed_at`, value: (record: ExportRecord) => (item(record)?.changed_at as string | undefined) ?? null, label: { label: fillTemplate(exportText.item_changed_at, { item: rule.title }), section: '', page: '' } },
      ];
    }),
  ];
  const answerColumns: ExportColumn[] = [];
  const named = new Set<string>();
  const add = (column: ExportColumn) => {
    if (named.has(column.name)) return; // a model key may itself be a label column's name
    named.add(column.name);
    answerColumns.push(column);
  };
  for (const { key, type } of dataModelKeys()) {
    // a check box never ticked has no stored answer: it is `false`, not an empty cell
    const value: ExportColumn['value'] = type === 'boolean' ? (record) => record.answers[key] === true : (record) => record.answers[key] ?? null;
    add({ name: key, value, label: labelOf(key) });
    if (isCoded(key, type)) {
      const label = optionLabels(key);
      add({ name: descKey(key), value: (record) => label(record.answers), label: labelOf(key, exportText.option_label) });
    }
    if (type === 'document') {
      // the question's own column says ANSWERED; these say which file, how big, and where its copy is
      add({ name: `${key}_file_name`, value: (record) => record.documents[key]?.fileName ?? null, label: labelOf(key, exportText.file_name) });
      add({ name: `${key}_file_size`, value: (record) => record.documents[key]?.fileSize ?? null, label: labelOf(key, exportText.file_size) });
      add({ name: `${key}_file_path`, value: (record) => record.documents[key]?.path ?? null, label: labelOf(key, exportText.file_path) });
    }
  }
  const removed = otherStoredKeys.filter((key) => !named.has(key) && !(key.endsWith(DESC_SUFFIX) && named.has(key.slice(0, -DESC_SUFFIX.length))));
  for (const key of [...removed].sort()) add({ name: key, value: (record) => record.answers[key] ?? null, label: labelOf(key) });
  return [...fixed, ...answerColumns];
}
