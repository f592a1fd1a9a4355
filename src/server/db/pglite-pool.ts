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

/**
 * How many borrowers may hold the connection at once, outside transactions. Two keep the
 * database thread busy: one statement runs while the next is already with the thread, so it
 * no longer idles for each reply's way back and the next statement's way out (the saves per
 * second at any number in flight were flat at the one-at-a-time rate). More would only let
 * newer requests' statements pass older ones that are on their way back.
 */
const SHARED_BORROWERS = 2;

/** Kysely opens a transaction with one of these, on the connection it borrowed. */
const OPENS_TRANSACTION = /^\s*(begin|start\s+transaction)\b/i;

interface Borrower {
  /** when the request it serves arrived; work outside a request counts from when it asked */
  arrived: number;
  /** a transaction's: the connection to itself */
  alone: boolean;
  lend(): void;
}

/**
 * Presents the PGlite thread as the small part of a `pg` Pool that Kysely's
 * PostgresDialect uses, so both databases share one query layer. PGlite has a single
 * connection. A statement on its own is lent it beside one other (the thread runs them in
 * the order sent); a transaction has it alone, from its `begin` to its release, which keeps
 * its statements together. The others wait, the oldest request first: a request that
 * already had its session looked up goes before requests that came after it, so under a
 * queue every request waits about once, not once per statement (1,000 saves in flight timed
 * out when each of a save's two borrowings queued behind every newer request).
 */
export function pglitePool(pglite: PGliteThread): PGlitePool {
  /** borrowers holding the connection; a transaction's holds it alone */
  let lent = 0;
  let alone = false;
  /** sorted by arrival, oldest first */
  const waiting: Borrower[] = [];
  const arrival = () => requestArrival.getStore() ?? performance.now();

  // the oldest waiter goes first, or nobody: a transaction waiting is not passed by newer statements
  const lendToWaiting = () => {
    for (let next = waiting[0]; next && !alone && (next.alone ? lent === 0 : lent < SHARED_BORROWERS); next = waiting[0]) {
      waiting.shift();
      lent += 1;
      alone = next.alone;
      next.lend();
    }
  };
  const borrow = (arrived: number, asAlone: boolean) => new Promise<void>((lend) => {
    let at = waiting.length; // binary search: equal arrivals keep their order
    for (let low = 0; low < at;) {
      const middle = (low + at) >> 1;
      if (waiting[middle]!.arrived <= arrived) low = middle + 1;
      else at = middle;
    }
    waiting.splice(at, 0, { arrived, alone: asAlone, lend });
    lendToWaiting();
  });
  const giveBack = () => {
    lent -= 1;
    alone = false;
    lendToWaiting();
  };

  const connection = (arrived: number) => {
    let holdsAlone = false;
    return {
      release: giveBack,
      async query(sql: string, parameters: readonly unknown[]) {
        if (!holdsAlone && OPENS_TRANSACTION.test(sql)) {
          // its turn again, for the connection alone: nothing of another borrower runs inside its
          // transaction; in the queue at its arrival before it gives the connection back
          const turn = borrow(arrived, true);
          giveBack();
          await turn;
          holdsAlone = true;
        }
        const result = await pglite.query(sql, [...parameters], statementNameOf(sql));
        const command = (/^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SELECT') as PostgresQueryResult<unknown>['command'];
        return { command, rowCount: result.affectedRows, rows: result.rows };
      },
    } as unknown as PostgresPoolClient; // no cursor support: nothing streams
  };

  return {
    async connect() {
      const arrived = arrival();
      await borrow(arrived, false);
      return connection(arrived);
    },
    async ping() {
      // The thread runs it after the statements already sent to it (at most two), even inside a
      // borrower's transaction, which a `select 1` leaves as it was. Waiting for the borrower's
      // release made a health check wait for a whole transaction (a submit's, an export's), a
      // turn of the HTTP loop for each of its statements.
      try {
        await pglite.query('select 1', []);
      } catch (error) {
        // the transaction around it had failed: the database answered all the same
        if ((error as { code?: string }).code !== IN_FAILED_TRANSACTION) throw error;
      }
    },
    async end() {
      await borrow(arrival(), true);
      await pglite.close();
    },
  };
}
