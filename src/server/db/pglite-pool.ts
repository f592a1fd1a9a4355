import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type { PGliteThread } from './pglite-thread.ts';
import { statementNameOf } from './prepared-statement.ts';
import { requestArrival } from './request-order.ts';

export interface PGlitePool extends PostgresPool {
  /**
   * `select 1` sent to the database thread at once, without waiting for the connection: a
   * health check asks whether the database answers, not how long the queue is.
   */
  ping(): Promise<void>;
}

/** SQLSTATE 25P02: a statement inside a transaction that has already failed */
const IN_FAILED_TRANSACTION = '25P02';

interface Borrower {
  /** when the request it serves arrived; work outside a request counts from when it asked */
  arrived: number;
  lend(): void;
}

/**
 * Presents the PGlite thread as the small part of a `pg` Pool that Kysely's
 * PostgresDialect uses, so both databases share one query layer. PGlite has a single
 * connection: it is lent to one borrower at a time, which keeps a transaction's
 * statements together. The others wait, the oldest request first: a request that already
 * had its session looked up goes before requests that came after it, so under a queue
 * every request waits about once, not once per statement (1,000 saves in flight
 * timed out when each of a save's two borrowings queued behind every newer request).
 */
export function pglitePool(pglite: PGliteThread): PGlitePool {
  let busy = false;
  /** sorted by arrival, oldest first */
  const waiting: Borrower[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next.lend();
    else busy = false;
  };
  const wait = (arrived: number) => new Promise<void>((lend) => {
    let at = waiting.length; // binary search: equal arrivals keep their order
    for (let low = 0; low < at;) {
      const middle = (low + at) >> 1;
      if (waiting[middle]!.arrived <= arrived) low = middle + 1;
      else at = middle;
    }
    waiting.splice(at, 0, { arrived, lend });
  });
  const borrow = async () => {
    if (busy) await wait(requestArrival.getStore() ?? performance.now());
    busy = true;
  };
  const connection = {
    release,
    async query(sql: string, parameters: readonly unknown[]) {
      const result = await pglite.query(sql, [...parameters], statementNameOf(sql));
      const command = (/^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SELECT') as PostgresQueryResult<unknown>['command'];
      return { command, rowCount: result.affectedRows, rows: result.rows };
    },
  } as unknown as PostgresPoolClient; // no cursor support: nothing streams

  return {
    async connect() {
      await borrow();
      return connection;
    },
    async ping() {
      // The thread runs it right after the statement under way, even inside a borrower's
      // transaction, which a `select 1` leaves as it was. Waiting for the borrower's release
      // made a health check wait for a whole transaction (a submit's, an export's), a turn
      // of the HTTP loop for each of its statements.
      try {
        await pglite.query('select 1', []);
      } catch (error) {
        // the transaction around it had failed: the database answered all the same
        if ((error as { code?: string }).code !== IN_FAILED_TRANSACTION) throw error;
      }
    },
    async end() {
      await borrow();
      await pglite.close();
    },
  };
}
