import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, JobsTable } from '../tables.ts';

export type JobRow = Pick<Selectable<JobsTable>, 'id' | 'kind' | 'lane' | 'payload' | 'attempts' | 'max_attempts'>;

/** Queues a job; with a singletonKey only the first insert of that key does (undefined for the others). */
export async function insertJob(
  db: Kysely<Database>, job: { kind: string; lane: string; payload: unknown; maxAttempts: number; singletonKey?: string },
): Promise<string | undefined> {
  const row = await db.insertInto('jobs')
    .values({
      kind: job.kind, lane: job.lane, payload: sql`${JSON.stringify(job.payload)}::jsonb`, status: 'queued', max_attempts: job.maxAttempts,
      singleton_key: job.singletonKey ?? null,
    })
    .onConflict((conflict) => conflict.column('singleton_key').doNothing())
    .returning('id').executeTakeFirst();
  return row ? String(row.id) : undefined;
}

/** Queues a job already taken by this server (attempt 1 under its lock): it runs now, here. */
export async function insertRunningJob(
  db: Kysely<Database>, job: { kind: string; lane: string; payload: unknown; maxAttempts: number }, lockMs: number,
): Promise<JobRow> {
  const row = await db.insertInto('jobs')
    .values({
      kind: job.kind, lane: job.lane, payload: sql`${JSON.stringify(job.payload)}::jsonb`, status: 'running', max_attempts: job.maxAttempts,
      attempts: 1, locked_until: sql`now() + ${`${lockMs} milliseconds`}::interval`,
    })
    .returning(['id', 'kind', 'lane', 'payload', 'attempts', 'max_attempts']).executeTakeFirstOrThrow();
  return { ...row, id: String(row.id) };
}

/**
 * Takes the oldest ready job of these lanes (those with room on this server): queued, or
 * running with a lapsed lock (its worker died). SKIP LOCKED lets several servers share the
 * table; each job goes to one of them. One statement for all the lanes: an idle server
 * asked once per lane at every poll, 12 statements a second doing nothing.
 */
export async function claimJob(db: Kysely<Database>, lanes: readonly string[], lockMs: number): Promise<JobRow | undefined> {
  if (lanes.length === 0) return undefined;
  const result = await sql<JobRow>`
    update jobs set status = 'running', attempts = attempts + 1,
      locked_until = now() + ${`${lockMs} milliseconds`}::interval, updated_at = now()
    where id = (
      select id from jobs
      where lane in (${sql.join(lanes)}) and run_after <= now()
        and (status = 'queued' or (status = 'running' and locked_until < now()))
      order by id limit 1
      for update skip locked
    )
    returning id, kind, lane, payload, attempts, max_attempts`.execute(db);
  const row = result.rows[0];
  return row ? { ...row, id: String(row.id) } : undefined;
}

export async function extendLock(db: Kysely<Database>, id: string, lockMs: number): Promise<void> {
  await sql`update jobs set locked_until = now() + ${`${lockMs} milliseconds`}::interval where id = ${id} and status = 'running'`.execute(db);
}

export async function finishJob(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('jobs').set({ status: 'done', locked_until: null, updated_at: new Date() }).where('id', '=', id).execute();
}

export async function failJob(db: Kysely<Database>, id: string, error: string): Promise<void> {
  await db.updateTable('jobs').set({ status: 'failed', last_error: error, locked_until: null, updated_at: new Date() }).where('id', '=', id).execute();
}

/** `giveBackAttempt`: the attempt does not count (the server's stop cut it short; the job did not fail). */
export async function retryJob(db: Kysely<Database>, id: string, error: string, delayMs: number, { giveBackAttempt = false } = {}): Promise<void> {
  await db.updateTable('jobs')
    .set((update) => ({
      status: 'queued', last_error: error, locked_until: null, run_after: new Date(Date.now() + delayMs), updated_at: new Date(),
      ...(giveBackAttempt ? { attempts: sql<number>`greatest(${update.ref('attempts')} - 1, 0)` } : {}),
    }))
    .where('id', '=', id).execute();
}

/** Jobs that ended (done or failed) before `before`: the document and PDF rows keep what the applicant sees. */
export async function deleteFinishedJobs(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('jobs').where('status', 'in', ['done', 'failed']).where('updated_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
