import dataModel from '../../../schemas/data-model.json';
import { descKey, DESC_SUFFIX, instanceKey } from '../../shared/answers/key-naming.ts';
import { optionLabelsOf } from '../../shared/answers/option-rules.ts';
import { form } from '../../shared/form/form-model-data.ts';
import type { DataModel } from '../../shared/generated/types.ts';

/** One application as the export reads it. */
export interface ExportRecord {
  id: string;
  email: string;
  webStatus: string;
  submittedAt: string | null;
  statusHistory: { status: string; at: string }[];
  answers: Record<string, string | boolean>;
}

export type CellValue = string | boolean | null | { status: string; at: string }[];

export interface ExportColumn {
  name: string;
  value(record: ExportRecord): CellValue;
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

/**
 * The export's columns: the application's own five, then one per answer key of the data
 * model in its order, each coded one followed by `<key>_desc` with its option's label;
 * then keys still stored but no longer in the data model (removed this cycle), sorted, so
 * an office's import mapping survives a schema edit. `otherStoredKeys`: stored keys the
 * data model does not list (export-repository otherStoredKeys).
 */
export function exportColumns(otherStoredKeys: readonly string[]): ExportColumn[] {
  const fixed: ExportColumn[] = [
    { name: 'applicant_id', value: (record) => record.id },
    { name: 'email', value: (record) => record.email },
    { name: 'web_status', value: (record) => record.webStatus },
    { name: 'submitted_at', value: (record) => record.submittedAt },
    { name: 'status_history', value: (record) => record.statusHistory },
  ];
  const answerColumns: ExportColumn[] = [];
  const named = new Set<string>();
  const add = (column: ExportColumn) => {
    if (named.has(column.name)) return; // a model key may itself be a label column's name
    named.add(column.name);
    answerColumns.push(column);
  };
  for (const { key, type } of dataModelKeys()) {
    add({ name: key, value: (record) => record.answers[key] ?? null });
    if (isCoded(key, type)) {
      const label = optionLabels(key);
      add({ name: descKey(key), value: (record) => label(record.answers) });
    }
  }
  const removed = otherStoredKeys.filter((key) => !named.has(key) && !(key.endsWith(DESC_SUFFIX) && named.has(key.slice(0, -DESC_SUFFIX.length))));
  for (const key of [...removed].sort()) add({ name: key, value: (record) => record.answers[key] ?? null });
  return [...fixed, ...answerColumns];
}
