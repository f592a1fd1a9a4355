/**
 * How the embedded database's one connection is lent (src/server/db/pglite-pool.ts), with a
 * stand-in for its thread that answers when told: two statements on their own are with the
 * thread at once, a transaction has it alone, the oldest request goes first.
 */
import { describe, expect, it } from 'vitest';
import type { PostgresPoolClient } from 'kysely';
import { pglitePool } from '../../src/server/db/pglite-pool.ts';
import type { PGliteResult, PGliteThread } from '../../src/server/db/pglite-thread.ts';
import { requestArrival } from '../../src/server/db/request-order.ts';

/** A thread whose statements wait until `answer(sql)`; `sent` lists what reached it, in order. */
function heldThread() {
  const sent: string[] = [];
  const answers = new Map<string, () => void>();
  const thread = {
    query(sql: string): Promise<PGliteResult> {
      sent.push(sql);
      return new Promise((resolve) => answers.set(sql, () => resolve({ rows: [], affectedRows: 0 })));
    },
  } as unknown as PGliteThread;
  return { thread, sent, answer: (sql: string) => answers.get(sql)!() };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** One statement on a borrowed connection, then its release, as Kysely runs one outside a transaction. */
async function statement(pool: ReturnType<typeof pglitePool>, sql: string): Promise<void> {
  const client: PostgresPoolClient = await pool.connect();
  try {
    await client.query(sql, []);
  } finally {
    client.release();
  }
}

describe('the embedded database connection', () => {
  it('has two statements on their own with the thread at once, and the next sent when one is answered', async () => {
    const { thread, sent, answer } = heldThread();
    const pool = pglitePool(thread);
    const done = ['select 1', 'select 2', 'select 3'].map((sql) => statement(pool, sql));
    await settle();
    expect(sent).toEqual(['select 1', 'select 2']);
    answer('select 1');
    await settle();
    expect(sent).toEqual(['select 1', 'select 2', 'select 3']);
    answer('select 2');
    answer('select 3');
    await Promise.all(done);
  });

  it('gives a transaction the connection alone: after the statements already sent, before newer ones', async () => {
    const { thread, sent, answer } = heldThread();
    const pool = pglitePool(thread);
    const older = statement(pool, 'select 1');
    // Kysely borrows the connection first, then begins on it; a newer statement waits meanwhile
    const client = await pool.connect();
    const newer = statement(pool, 'select 2');
    await settle();
    const transaction = (async () => {
      await client.query('begin', []);
      await client.query('update a', []);
      await client.query('commit', []);
      client.release();
    })();
    await settle();
    // the transaction waits for the statement sent before it, and the newer one does not pass it
    expect(sent).toEqual(['select 1']);
    answer('select 1');
    await settle();
    expect(sent).toEqual(['select 1', 'begin']);
    answer('begin');
    await settle();
    answer('update a');
    await settle();
    // a statement of another borrower would run inside the transaction: it waits for the release
    expect(sent).toEqual(['select 1', 'begin', 'update a', 'commit']);
    answer('commit');
    await settle();
    expect(sent.at(-1)).toBe('select 2');
    answer('select 2');
    await Promise.all([older, transaction, newer]);
  });

  it('lends it to the oldest waiting request first', async () => {
    const { thread, sent, answer } = heldThread();
    const pool = pglitePool(thread);
    const now = performance.now();
    const first = [statement(pool, 'select a'), statement(pool, 'select b')];
    await settle();
    const asked = [['arrived 30', 30], ['arrived 10', 10], ['arrived 20', 20]] as const;
    const waiting = asked.map(([sql, at]) => requestArrival.run(now - 1000 + at, () => statement(pool, sql)));
    await settle();
    answer('select a');
    answer('select b');
    await settle();
    expect(sent.slice(2)).toEqual(['arrived 10', 'arrived 20']);
    answer('arrived 10');
    answer('arrived 20');
    await settle();
    expect(sent.slice(2)).toEqual(['arrived 10', 'arrived 20', 'arrived 30']);
    answer('arrived 30');
    await Promise.all([...first, ...waiting]);
  });
});
