/**
 * schema:impact on the application file's items: an item added, removed, renamed or
 * changed is named, a removed or renamed id as breaking (states are stored by id), and a
 * change to whether an item is required names the submitted applications whose file it
 * changes, from their saved answers.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareFileItems, fileItemsImpact, requirementInWords } from '../../scripts/schema-impact/compare-file-items.ts';
import { schemasDir } from '../../scripts/schema-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'file-items-impact-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function copyWith(edit: (files: { items: any; spanish: any }) => void): string {
  const copy = join(dir, String(Math.random()).slice(2));
  cpSync(schemasDir, copy, { recursive: true });
  const read = (file: string) => JSON.parse(readFileSync(join(copy, file), 'utf8'));
  const files = { items: read('file-items.json'), spanish: read('i18n/es/file-items.json') };
  edit(files);
  writeFileSync(join(copy, 'file-items.json'), JSON.stringify(files.items));
  writeFileSync(join(copy, 'i18n/es/file-items.json'), JSON.stringify(files.spanish));
  return copy;
}

const said = (copy: string) => compareFileItems(schemasDir, copy).map((change) => `${change.breaking ? 'BREAKING ' : ''}${change.kind}: ${change.detail}`).join('\n');

describe('schema:impact on the application file items', () => {
  it('says nothing when nothing changed', () => {
    expect(said(copyWith(() => {}))).toBe('');
  });

  it('names an item added, and one removed as breaking', () => {
    const text = said(copyWith(({ items }) => {
      items.items.push({ id: 'portfolio', title: 'Portfolio', description: 'Upload it.', provided_by: ['applicant'], required: false });
      items.items = items.items.filter((item: any) => item.id !== 'counselor-recommendation');
    }));
    expect(text).toContain('item added: "portfolio" (Portfolio): optional, provided by applicant');
    expect(text).toContain('BREAKING item removed: "counselor-recommendation" (Counselor recommendation): the states stored under it no longer count');
  });

  it('names a renamed id as breaking, not as one removed and one added', () => {
    const text = said(copyWith(({ items, spanish }) => {
      items.items[0].id = 'hs-transcript';
      spanish.items[0].id = 'hs-transcript';
    }));
    expect(text).toBe('BREAKING item renamed: "transcript" is now "hs-transcript": the states stored under "transcript" (received, waived, requested) no longer count, and the office\'s systems know the old id');
  });

  it('names what changed of an item, its Spanish included', () => {
    const text = said(copyWith(({ items, spanish }) => {
      items.items[0].provided_by = ['office'];
      delete items.items[0].counselor_request;
      items.items[1].description = 'Send them.';
      spanish.items[2].title = 'Carta del orientador';
      items.decision_days = 21;
    }));
    expect(text).toContain('item changed: "transcript": now provided by office (was counselor, office); counselors can no longer be asked for it');
    expect(text).toContain('item changed: "test-scores": its English description changed');
    expect(text).toContain('item changed: "counselor-recommendation": its Spanish changed');
    expect(text).toContain('file settings changed: now decision due 21 days after the file is complete');
  });

  it('names a requirement change, and the submitted files it changes', () => {
    const copy = copyWith(({ items }) => {
      items.items[1].required_when = { key: 'test_optional', op: 'in', value: ['Y', 'N'] };
      items.items[2].required = true;
    });
    const changes = compareFileItems(schemasDir, copy);
    expect(changes.map((change) => change.detail)).toEqual([
      '"test-scores": now required when test_optional is one of ["Y","N"] (was required when test_optional is "Y"): it changes which files are complete',
      '"counselor-recommendation": now required (was optional): it changes which files are complete',
    ]);
    const saved = {
      byApplicant: new Map<string, Record<string, string | boolean>>([
        ['a-scores', { test_optional: 'Y' }],
        ['b-no-scores', { test_optional: 'N' }],
        ['c-in-progress', { test_optional: 'N' }],
      ]),
      submitted: new Set(['a-scores', 'b-no-scores']),
    };
    expect(fileItemsImpact(saved, schemasDir, copy, changes)).toEqual([
      { nowRequired: 1, noLongerRequired: 0, examples: ['b-no-scores'] },
      { nowRequired: 2, noLongerRequired: 0, examples: ['a-scores', 'b-no-scores'] },
    ]);
  });

  it('words a rule as staff read it', () => {
    expect(requirementInWords({ required: true, required_when: { any: [{ key: 'a', op: 'answered' }, { key: 'b', op: 'notEquals', value: 'N' }] } }))
      .toBe('required when (a is answered or b is not "N")');
    expect(requirementInWords({ required: false })).toBe('optional');
  });
});
