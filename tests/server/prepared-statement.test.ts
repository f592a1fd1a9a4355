import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { preparedStatement } from '../../src/server/db/prepared-statement.ts';
import { databaseForSuite } from '../../support/pglite-template.ts';
import { databaseTargets } from '../../support/test-databases.ts';

/** The save's statements are compiled once (and named on PostgreSQL), and each run carries its own values. */
describe.each(databaseTargets())('a prepared statement on $name', (target) => {
  const suite = databaseForSuite('prepared-statement', target);
  const database = { get db() { return suite.handle.db; } };

  it('is built once and runs with each call\'s values, a value used twice in both places', async () => {
    let built = 0;
    const echo = preparedStatement((_db, word: string, times: number) => {
      built += 1;
      return sql<{ repeated: string; again: string }>`select repeat(${word}, ${times}::int) as repeated, ${word}::text as again`;
    });
    expect((await echo(database.db, 'ab', 2)).rows).toEqual([{ repeated: 'abab', again: 'ab' }]);
    expect((await echo(database.db, 'x', 3)).rows).toEqual([{ repeated: 'xxx', again: 'x' }]);
    // inside a transaction too, with that transaction's values
    await database.db.transaction().execute(async (tx) => {
      expect((await echo(tx, 'tx', 1)).rows).toEqual([{ repeated: 'tx', again: 'tx' }]);
    });
    expect(built).toBe(2); // once for the database, once for the transaction
  });

  it('runs a query builder\'s statement with new values', async () => {
    const applicantByEmail = preparedStatement((db, email: string) => db.selectFrom('applicants').select('email').where('email', '=', email));
    expect((await applicantByEmail(database.db, 'nobody@example.org')).rows).toEqual([]);
    await database.db.insertInto('applicants').values({ email: 'prepared@example.org', password_hash: 'x' }).execute();
    expect((await applicantByEmail(database.db, 'prepared@example.org')).rows).toEqual([{ email: 'prepared@example.org' }]);
  });

  it('refuses a value written inside its SQL, or made part of its text, which every later call would send unchanged', async () => {
    const frozen = preparedStatement((_db, word: string) => sql`select ${word}::text, ${new Date()}::timestamptz`);
    expect(() => frozen(database.db, 'a')).toThrow(/value is written in its SQL/);
    const asText = preparedStatement((_db, column: string) => sql`select ${sql.raw(column)} from applicants`);
    expect(() => asText(database.db, 'email')).toThrow(/not one of its parameters/);
  });

  it('is a named statement of the connection, parsed once, while other SQL is not', async () => {
    const marker = preparedStatement((_db, value: number) => sql<{ marked: number }>`select ${value}::int as marked /* named-statement-probe */`);
    await database.db.transaction().execute(async (tx) => {
      // a transaction keeps one connection: what it prepared is visible to it
      expect((await marker(tx, 1)).rows).toEqual([{ marked: 1 }]);
      expect((await marker(tx, 2)).rows).toEqual([{ marked: 2 }]);
      await sql`select 'not prepared' /* unnamed-probe */`.execute(tx);
      const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(tx);
      const probe = rows.filter((row) => row.statement.includes('named-statement-probe'));
      expect(probe).toHaveLength(1);
      expect(probe[0]!.name).toMatch(/^prepared_\d+$/);
      expect(rows.some((row) => row.statement.includes('unnamed-probe'))).toBe(false);
    });
  });

  it('fails with the database\'s error, and runs again after it, in and out of a transaction', async () => {
    const divide = preparedStatement((_db, by: number) => sql<{ quotient: number }>`select 12 / ${by}::int as quotient /* failing-probe */`);
    await expect(divide(database.db, 0)).rejects.toMatchObject({ code: '22012' });
    expect((await divide(database.db, 4)).rows).toEqual([{ quotient: 3 }]);
    await expect(database.db.transaction().execute(async (tx) => {
      expect((await divide(tx, 6)).rows).toEqual([{ quotient: 2 }]);
      await divide(tx, 0);
    })).rejects.toMatchObject({ code: '22012' });
    // the failed transaction was rolled back: the connection goes on
    expect((await divide(database.db, 2)).rows).toEqual([{ quotient: 6 }]);
    expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows).toEqual([{ one: 1 }]);
  });
});
