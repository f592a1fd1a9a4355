import { describe, expect, it } from 'vitest';
import { readSavedAnswers } from '../../scripts/schema-impact/saved-answers.ts';
import type { DataAccess } from '../../scripts/lib/data-access.ts';

/** The saved answers as the admin channel or the database gives them: pages in (applicant, key) order. */
function fakeData(rows: [string, string, string | boolean][], submitted: string[]) {
  const asked: unknown[] = [];
  const data = {
    async call(name: string, args: Record<string, unknown>) {
      asked.push({ name, ...args });
      if (name === 'applications.submitted') return { ids: submitted };
      const after = args.after as [string, string] | null;
      const rest = after ? rows.filter(([applicant, key]) => applicant > after[0] || (applicant === after[0] && key > after[1])) : rows;
      return { rows: rest.slice(0, args.limit as number) };
    },
  } as unknown as Pick<DataAccess, 'call'>;
  return { data, asked };
}

describe('schema:impact reads the saved answers', () => {
  it('a page at a time, each after the last pair of the one before, until a short page', async () => {
    const rows: [string, string, string | boolean][] = [['a', 'city', 'Boise'], ['a', 'first_name', 'Ada'], ['b', 'gender', 'X'], ['b', 'legal_agree', true], ['c', 'zip', '83702']];
    const { data, asked } = fakeData(rows, ['b']);
    const saved = await readSavedAnswers(data, 2);
    expect(Object.fromEntries(saved.byApplicant)).toEqual({
      a: { city: 'Boise', first_name: 'Ada' }, b: { gender: 'X', legal_agree: true }, c: { zip: '83702' },
    });
    expect([...saved.submitted]).toEqual(['b']);
    expect(asked).toEqual([
      { name: 'answers.saved', after: null, limit: 2 },
      { name: 'answers.saved', after: ['a', 'first_name'], limit: 2 },
      { name: 'answers.saved', after: ['b', 'legal_agree'], limit: 2 },
      { name: 'applications.submitted' },
    ]);
  });
});
