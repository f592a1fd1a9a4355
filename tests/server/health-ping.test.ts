import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database.ts';
import { holdConnection } from '../helpers/held-connection.ts';
import { databaseTargets } from '../../support/test-databases.ts';

/**
 * /healthz asks whether PostgreSQL answers, on connections of its own, so a full
 * pool with requests queueing for it (1,000 saves in flight) does not make the server look dead.
 */
const postgres = databaseTargets().find((target) => target.name === 'postgres');

describe.skipIf(!postgres)('the health ping on PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'health-ping-'));
  let database: DatabaseHandle;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const created = await postgres!.create();
    drop = created.drop;
    database = await openDatabase({ url: created.url, dataDir, poolSize: 1 });
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers while every pooled connection is taken and statements queue for one', async () => {
    const order: string[] = [];
    const transaction = await holdConnection(database.db); // the pool's only connection
    const waiting = sql`select 2`.execute(database.db).then(() => order.push('queued statement'));
    await database.ping();
    order.push('ping');
    transaction.release();
    await Promise.all([transaction.done, waiting]);
    expect(order).toEqual(['ping', 'queued statement']);
  });
});
