import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { requestArrival } from '../../src/server/db/request-order.ts';
import { holdConnection } from '../helpers/held-connection.ts';
import { embeddedDatabaseForSuite } from '../../support/pglite-template.ts';

/**
 * The embedded database runs in a thread of its own, so the HTTP event loop goes
 * on while a statement runs; values and errors arrive as PGlite gives them.
 */
describe('PGlite in its own thread', () => {
  const suite = embeddedDatabaseForSuite('pglite-thread');

  it('leaves the event loop free while a long statement runs', async () => {
    let finished = false;
    const long = sql`select count(*) from generate_series(1, 5000000)`.execute(suite.handle.db).then(() => (finished = true));
    // in the server's own thread the statement would run to its end before this turn of the loop
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished).toBe(false);
    await long;
    expect(finished).toBe(true);
  });

  it('answers a ping while a transaction holds the connection and statements wait for it', async () => {
    const order: string[] = [];
    // a transaction holds PGlite's one connection until released
    const transaction = await holdConnection(suite.handle.db);
    const waiting = Array.from({ length: 5 }, (_, index) => sql`select ${index}::int`.execute(suite.handle.db).then(() => order.push(`statement ${index}`)));
    await new Promise((resolve) => setImmediate(resolve)); // the statements are queued for the connection
    await suite.handle.ping(); // before the release: the ping does not wait for the connection
    order.push('ping');
    transaction.release();
    await Promise.all([transaction.done, ...waiting]);
    expect(order).toEqual(['ping', 'statement 0', 'statement 1', 'statement 2', 'statement 3', 'statement 4']);
  });

  it('answers a ping inside a transaction that has failed, and leaves the transaction as it was', async () => {
    let release!: () => void;
    let failed!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inside = new Promise<void>((resolve) => (failed = resolve));
    const transaction = suite.handle.db.transaction().execute(async (tx) => {
      await sql`create temporary table ping_probe (n int)`.execute(tx);
      await sql`insert into ping_probe values (1)`.execute(tx);
      await sql`select 1 / 0`.execute(tx).catch(() => failed());
      await held;
      // still the failed transaction: its next statement is refused, then it rolls back
      await sql`select 1`.execute(tx);
    });
    await inside;
    await expect(suite.handle.ping()).resolves.toBeUndefined();
    release();
    await expect(transaction).rejects.toMatchObject({ code: '25P02' });
    // rolled back: the table made inside it is gone
    await expect(sql`select * from ping_probe`.execute(suite.handle.db)).rejects.toMatchObject({ code: '42P01' });
  });

  it('lends the connection to the oldest waiting request first, whatever order they asked in', async () => {
    const order: string[] = [];
    const transaction = await holdConnection(suite.handle.db);
    // requests that arrived at 30, 10, 20 and 10 ask in that order (the second 10 asks last:
    // its session look-up is done and it comes back for its save); one outside any request asks now
    const now = performance.now();
    const ask = (name: string, arrived: number | undefined) => {
      const statement = () => sql`select 1`.execute(suite.handle.db).then(() => order.push(name));
      return arrived === undefined ? statement() : requestArrival.run(now - 1000 + arrived, statement);
    };
    const waiting = [ask('arrived 30', 30), ask('arrived 10, first', 10), ask('arrived 20', 20), ask('no request', undefined), ask('arrived 10, second', 10)];
    await new Promise((resolve) => setImmediate(resolve));
    transaction.release();
    await Promise.all([transaction.done, ...waiting]);
    expect(order).toEqual(['arrived 10, first', 'arrived 10, second', 'arrived 20', 'arrived 30', 'no request']);
  });

  it('gives dates, JSON and bytes as PGlite reads them, and database errors with their code', async () => {
    const { rows } = await sql<{ at: Date; value: unknown; bytes: Uint8Array }>`select now() as at, '{"a":[1,"b"]}'::jsonb as value, '\\x0102'::bytea as bytes`.execute(suite.handle.db);
    expect(rows[0]!.at).toBeInstanceOf(Date);
    expect(rows[0]!.value).toEqual({ a: [1, 'b'] });
    expect([...rows[0]!.bytes]).toEqual([1, 2]);
    await expect(sql`select 1 / 0`.execute(suite.handle.db)).rejects.toMatchObject({ message: 'division by zero', code: '22012' });
    // the connection is usable after the error
    expect((await sql<{ one: number }>`select 1 as one`.execute(suite.handle.db)).rows).toEqual([{ one: 1 }]);
  });
});
