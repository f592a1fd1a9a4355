import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { preparedStatement } from '../../src/server/db/prepared-statement.ts';
import { embeddedDatabaseForSuite } from '../helpers/pglite-template.ts';

/** Issue 17: the save's statements are compiled once, and each run carries its own values. */
describe('a prepared statement', () => {
  const suite = embeddedDatabaseForSuite('prepared-statement');

  it('is built once and runs with each call\'s values, a value used twice in both places', async () => {
    let built = 0;
    const echo = preparedStatement((_db, word: string, times: number) => {
      built += 1;
      return sql<{ repeated: string; again: string }>`select repeat(${word}, ${times}::int) as repeated, ${word}::text as again`;
    });
    expect((await echo(suite.handle.db, 'ab', 2)).rows).toEqual([{ repeated: 'abab', again: 'ab' }]);
    expect((await echo(suite.handle.db, 'x', 3)).rows).toEqual([{ repeated: 'xxx', again: 'x' }]);
    // inside a transaction too, with that transaction's values
    await suite.handle.db.transaction().execute(async (tx) => {
      expect((await echo(tx, 'tx', 1)).rows).toEqual([{ repeated: 'tx', again: 'tx' }]);
    });
    expect(built).toBe(2); // once for the database, once for the transaction
  });

  it('runs a query builder\'s statement with new values', async () => {
    const applicantByEmail = preparedStatement((db, email: string) => db.selectFrom('applicants').select('email').where('email', '=', email));
    expect((await applicantByEmail(suite.handle.db, 'nobody@example.org')).rows).toEqual([]);
    await suite.handle.db.insertInto('applicants').values({ email: 'prepared@example.org', password_hash: 'x' }).execute();
    expect((await applicantByEmail(suite.handle.db, 'prepared@example.org')).rows).toEqual([{ email: 'prepared@example.org' }]);
  });

  it('refuses a value written inside its SQL, which every later call would send unchanged', async () => {
    const frozen = preparedStatement((_db, word: string) => sql`select ${word}::text, ${new Date()}::timestamptz`);
    expect(() => frozen(suite.handle.db, 'a')).toThrow(/value is written in its SQL/);
  });
});
