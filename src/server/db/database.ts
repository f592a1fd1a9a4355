import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect, type MigrationProvider } from 'kysely';
import pg from 'pg';
import { lockDataDir, type LockHolder } from '../lib/data-dir-lock.ts';
import { makePrivate, privateDir } from '../lib/private-files.ts';
import { migrations } from './migrations/index.ts';
import { pglitePool } from './pglite-pool.ts';
import { nameStatementsOn } from './prepared-statement.ts';
import { PGliteThread } from './pglite-thread.ts';
import type { Database } from './tables.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** Whether the database answers (`select 1`); on PGlite without waiting for the connection, on PostgreSQL on connections of its own. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; without it an embedded PGlite database is used. */
  url?: string | undefined;
  /** Folder for the embedded database; `memory://` keeps it in memory. */
  dataDir: string;
  poolSize?: number;
  /**
   * Who opens the embedded database, as DATA_DIR's lock names it (lib/data-dir-lock.ts):
   * default the server. Opening a folder another live process holds throws DataDirInUse.
   */
  holder?: Pick<LockHolder, 'role' | 'name'>;
}

const CONNECTION_TIMEOUT_MS = 5000;
// no request waits forever on a connection that went silent mid-query
const STATEMENT_TIMEOUT_MS = 15_000;
const QUERY_TIMEOUT_MS = 20_000;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  if (options.url) {
    const openPool = (max: number) => {
      const pool = new pg.Pool({
        connectionString: options.url,
        max,
        // a database that does not answer (a host gone, a full pool) fails the request in seconds instead of hanging it
        connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
        statement_timeout: STATEMENT_TIMEOUT_MS,
        query_timeout: QUERY_TIMEOUT_MS,
      });
      // a client losing its server (PostgreSQL stopped or restarted) must not crash the process:
      // an idle one is dropped by the pool, one in use fails its query and is dropped on release
      pool.on('error', () => {});
      pool.on('connect', (client) => {
        client.on('error', () => {});
        nameStatementsOn(client);
      });
      return pool;
    };
    const pool = openPool(options.poolSize ?? 20);
    // health checks on connections of their own: whether PostgreSQL answers, not how long the
    // requests' queue for the pool is (at 1,000 saves in flight a ping waited 0.7 s there)
    const healthPool = openPool(2);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    handle = {
      db, kind: 'postgres',
      ping: async () => void await healthPool.query('select 1'),
      close: async () => {
        await healthPool.end();
        await db.destroy();
      },
    };
  } else {
    const path = options.dataDir === 'memory://' ? undefined : join(options.dataDir, 'pgdata');
    let lock: { release(): void } | undefined;
    if (path) {
      await privateDir(options.dataDir);
      // before PGlite reads a page: two processes on one folder corrupt it
      lock = lockDataDir(options.dataDir, options.holder ?? { role: 'server', name: 'the server (npm start)' });
    }
    try {
      if (path) await privateDir(path);
      // in a thread of its own: the HTTP event loop never waits on a statement
      const pool = pglitePool(await PGliteThread.open(path));
      // PGlite unpacks a new database world-readable; the server's user alone may read it
      if (path) await makePrivate(path);
      const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
      handle = {
        db, kind: 'pglite', ping: () => pool.ping(),
        close: async () => {
          try {
            await db.destroy();
          } finally {
            lock?.release();
          }
        },
      };
    } catch (error) {
      lock?.release();
      throw error;
    }
  }
  try {
    await migrate(handle.db);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrate(db: Kysely<Database>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
