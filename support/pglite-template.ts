import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../src/server/db/database.ts';
import type { DatabaseTarget } from './test-databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

/** The run's one template, shared by the lanes that set it up (each lane's set-up loads this module afresh). */
interface SharedTemplate {
  dir: Promise<string>;
  users: number;
}
const SHARED = Symbol.for('admission-tests.pglite-template');
const registry = globalThis as typeof globalThis & { [SHARED]?: SharedTemplate };

/**
 * The buffer pool of every database copied from the template. PostgreSQL clears its whole
 * pool as it starts, and PGlite starts it afresh with each server: PostgreSQL's 128 MB took
 * about 0.35 s of CPU of each test server's 1.2 s start here, 16 MB (more than a test's data)
 * takes 0.05 s. `npm start`'s own databases keep the default (a first start makes its own).
 */
const TEMPLATE_SHARED_BUFFERS = '16MB';

/** A migrated embedded database in a new folder (its `pgdata`), with the tests' buffer pool. */
export async function createTemplate(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'admission-pglite-template-'));
  const handle = await openDatabase({ dataDir: dir });
  // read as the copies start (postgresql.auto.conf in the data folder)
  await sql.raw(`ALTER SYSTEM SET shared_buffers = '${TEMPLATE_SHARED_BUFFERS}'`).execute(handle.db);
  await handle.close();
  return dir;
}

/**
 * Vitest global set-up: one embedded database, created and migrated once per run, for every
 * lane that asks (the server and end-to-end lanes each run this set-up; the second takes the
 * first's). A new PGlite cluster costs 4-5 s of initdb; a copy of this one opens in under a
 * second, and is the same database a first start makes (tests/e2e/quick-start.test.ts still
 * makes one). The last lane to finish removes it.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const shared = (registry[SHARED] ??= { dir: createTemplate(), users: 0 });
  shared.users += 1;
  const dir = await shared.dir;
  project.provide('pgliteTemplate', join(dir, 'pgdata'));
  return () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete registry[SHARED];
    rmSync(dir, { recursive: true, force: true });
  };
}

/** Puts a copy of the migrated template where a server with this DATA_DIR opens its database. */
export function seedEmbeddedDatabase(dataDir: string): void {
  const template = providedTemplate();
  if (template && existsSync(template)) cpSync(template, join(dataDir, 'pgdata'), { recursive: true });
}

/** The template's folder inside a Vitest run; outside one, the one a benchmark made (PGLITE_TEMPLATE), or none. */
function providedTemplate(): string | undefined {
  try {
    return inject('pgliteTemplate');
  } catch {
    return process.env.PGLITE_TEMPLATE;
  }
}

/**
 * A database of its own for the tests of one `describe`, opened before them and closed and
 * removed after them: an embedded one from the template, or, given a target, that
 * target's (a PostgreSQL database made for the suite and dropped after it).
 */
export function databaseForSuite(name: string, target?: DatabaseTarget): { readonly handle: DatabaseHandle } {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  let handle: DatabaseHandle | undefined;
  let drop = async () => {};
  beforeAll(async () => {
    const created = target ? await target.create() : { url: undefined, drop };
    drop = created.drop;
    if (!created.url) seedEmbeddedDatabase(dataDir);
    handle = await openDatabase({ url: created.url, dataDir });
  });
  afterAll(async () => {
    await handle?.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    get handle() {
      if (!handle) throw new Error('the suite\'s database is opened in beforeAll');
      return handle;
    },
  };
}

/** An embedded database of its own for the tests of one `describe` (databaseForSuite). */
export const embeddedDatabaseForSuite = (name: string) => databaseForSuite(name);
