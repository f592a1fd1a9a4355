import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * Presents one PGlite instance as the small part of a `pg` Pool that Kysely's
 * PostgresDialect uses, so both databases share one query layer. PGlite has a single
 * connection: a mutex lends it to one borrower at a time, which keeps a transaction's
 * statements together.
 */
export function pglitePool(pglite: PGlite): PostgresPool {
  let queue: Promise<void> = Promise.resolve();
  const connection = {
    release: () => {},
    async query(sql: string, parameters: readonly unknown[]) {
      const result = await pglite.query<Record<string, unknown>>(sql, [...parameters]);
      const command = (/^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SELECT') as PostgresQueryResult<unknown>['command'];
      return { command, rowCount: result.affectedRows ?? 0, rows: result.rows };
    },
  } as unknown as PostgresPoolClient; // no cursor support: nothing streams

  return {
    async connect() {
      const previous = queue;
      let release!: () => void;
      queue = new Promise<void>((resolve) => (release = resolve));
      await previous;
      connection.release = release;
      return connection;
    },
    async end() {
      await queue;
      await pglite.close();
    },
  };
}
