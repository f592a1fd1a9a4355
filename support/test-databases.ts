import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The databases every database-backed test runs on: embedded PGlite always, and
 * PostgreSQL too when TEST_DATABASE_URL is set (.ci/run sets it). Each PostgreSQL test
 * file gets a database of its own, dropped afterwards.
 */
export interface DatabaseTarget {
  name: 'pglite' | 'postgres';
  /** undefined: PGlite */
  create(): Promise<{ url: string | undefined; drop(): Promise<void> }>;
}

const pgliteTarget: DatabaseTarget = {
  name: 'pglite',
  create: async () => ({ url: undefined, drop: async () => {} }),
};

function postgresTarget(adminUrl: string): DatabaseTarget {
  return {
    name: 'postgres',
    async create() {
      const name = `test_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return {
        url: url.toString(),
        async drop() {
          const client = new pg.Client({ connectionString: adminUrl });
          await client.connect();
          await client.query(`drop database if exists ${name} with (force)`);
          await client.end();
        },
      };
    },
  };
}

/**
 * The default set-up's database alone, for tests whose subject is not the database (the
 * converters, the browser): what they store goes through the same repositories that the
 * database-backed tests run on both.
 */
export function defaultDatabaseTarget(): DatabaseTarget[] {
  return [pgliteTarget];
}

export function databaseTargets(): DatabaseTarget[] {
  const url = process.env.TEST_DATABASE_URL;
  return url ? [pgliteTarget, postgresTarget(url)] : [pgliteTarget];
}
