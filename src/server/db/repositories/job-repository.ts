import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Database, JobsTable } from '../tables.ts';

export type JobRow = Pick<Selectable<JobsTable>, 'id' | 'kind' | 'lane' | 'payload' | 'attempts' | 'max_attempts' | 'revision'>;

const RETURNED = sql.raw('id, kind, lane, payload, attempts, max_attempts, revision');

/** A job ready to be taken: queued and due, or running with a lapsed lock (its server died). */
const ready = (table: string) => sql.raw(
  `${table}.run_after <= now() and (${table}.status = 'queued' or (${table}.status = 'running' and ${table}.locked_until < now()))`,
);

export interface NewJob {
  kind: string;
  lane: string;
  payload: unknown;
  maxAttempts: number;
  /** only the first insert of this key ever queues (a periodic job's time slot) */
  singletonKey?: string;
  /** whose work it is: the queue serves owners in turn (see claimJob) */
  owner?: string;
  /** the client network it came from: served in turn too, and as few of its jobs run at once */
  network?: string;
  /**
   * at most one job of this key is queued or running: a second insert replaces the payload
   * of the one there (a newer upload of the same question), starting its attempts afresh;
   * a running one is queued again when it ends (its `revision` moved on)
   */
  slotKey?: string;
}

const rowOf = (row: JobRow): JobRow => ({ ...row, id: String(row.id) });

/** Queues a job; with a singletonKey only the first insert of that key does (undefined for the others). */
export async function insertJob(db: Kysely<Database>, job: NewJob): Promise<string | undefined> {
  const values = {
    kind: job.kind, lane: job.lane, payload: sql`${JSON.stringify(job.payload)}::jsonb`, status: 'queued' as const, max_attempts: job.maxAttempts,
    singleton_key: job.singletonKey ?? null, owner: job.owner ?? null, network: job.network ?? null, slot_key: job.slotKey ?? null,
  };
  if (job.slotKey) {
    const replaced = await sql<{ id: string }>`
      insert into jobs (kind, lane, payload, status, max_attempts, owner, network, slot_key)
      values (${values.kind}, ${values.lane}, ${values.payload}, 'queued', ${values.max_attempts}, ${values.owner}, ${values.network}, ${values.slot_key})
      on conflict (slot_key) where status in ('queued', 'running') do update set
        payload = excluded.payload, kind = excluded.kind, lane = excluded.lane, owner = excluded.owner, network = excluded.network,
        revision = jobs.revision + 1, updated_at = now(),
        attempts = case when jobs.status = 'queued' then 0 else jobs.attempts end,
        run_after = case when jobs.status = 'queued' then now() else jobs.run_after end,
        last_error = case when jobs.status = 'queued' then null else jobs.last_error end
      returning id`.execute(db);
    return String(replaced.rows[0]!.id);
  }
  const row = await db.insertInto('jobs').values(values)
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
    .returning(['id', 'kind', 'lane', 'payload', 'attempts', 'max_attempts', 'revision']).executeTakeFirstOrThrow();
  return rowOf(row);
}

/**
 * Takes the next ready job of these lanes (those with room on this server). Owners (an
 * applicant's inbox) and client networks take turns: the job is the one whose owner and
 * network were served least recently, the later of the two counting (never served first;
 * of equal turns, the owner never or least recently served), then the oldest. An owner never
 * has more than `perOwner` jobs running in one lane, and a network more than `perNetwork`,
 * across all servers: an attacker's accounts on one inbox hold one converter, and the next
 * applicant's file goes before their second. A turn may lie ahead (chargeOwners: a job that
 * cost more), which puts its owner and network behind everyone served until then.
 *
 * The turn is read without locks (an idle server asks one cheap question per poll), then
 * taken: a job without an owner or network by a conditional update (a server that took it
 * first wins), any other under its keys' row locks (see claimShared). One statement for all
 * the lanes: an idle server asked once per lane at every poll, 12 statements a second doing nothing.
 */
export async function claimJob(db: Kysely<Database>, lanes: readonly string[], lockMs: number, perOwner = 1, perNetwork = 4): Promise<JobRow | undefined> {
  if (lanes.length === 0) return undefined;
  // a few tries: another server may take the job we saw between the look and the claim
  for (let tries = 0; tries < 5; tries++) {
    const next = (await sql<SharedJob>`
      select j.id, j.owner, j.network, j.lane from jobs j
        left join job_owners o on o.owner = j.owner
        left join job_owners n on n.owner = j.network
      where j.lane in (${sql.join(lanes)}) and ${ready('j')}
        and (j.owner is null or ${runningOf(sql`j.owner`, sql`r.owner`, sql`j.lane`)} < ${perOwner})
        and (j.network is null or ${runningOf(sql`j.network`, sql`r.network`, sql`j.lane`)} < ${perNetwork})
      order by greatest(o.last_turn, n.last_turn) asc nulls first, o.last_turn asc nulls first, j.id
      limit 1`.execute(db)).rows[0];
    if (!next) return undefined;
    const claimed = next.owner === null && next.network === null
      ? await claimById(db, String(next.id), lockMs)
      : await claimShared(db, { ...next, id: String(next.id) }, lockMs, perOwner, perNetwork);
    if (claimed) return claimed;
  }
  return undefined;
}

interface SharedJob {
  id: string;
  owner: string | null;
  network: string | null;
  lane: string;
}

/** How many jobs whose `column` is `key` run (under a live lock) in `lane`. */
const runningOf = (key: RawBuilder<unknown>, column: RawBuilder<unknown>, lane: RawBuilder<unknown>) =>
  sql`(select count(*) from jobs r where ${column} = ${key} and r.lane = ${lane} and r.status = 'running' and r.locked_until >= now())`;

/** Takes this job if it is still ready: of two servers, the second finds it taken (its update waits, then sees the new row). */
async function claimById(db: Kysely<Database>, id: string, lockMs: number): Promise<JobRow | undefined> {
  const result = await sql<JobRow>`
    update jobs set status = 'running', attempts = attempts + 1,
      locked_until = now() + ${`${lockMs} milliseconds`}::interval, updated_at = now()
    where id = ${id} and ${ready('jobs')}
    returning ${RETURNED}`.execute(db);
  return result.rows[0] ? rowOf(result.rows[0]) : undefined;
}

/**
 * Takes this job unless `perOwner` of its owner's, or `perNetwork` of its network's, run in its lane
 * already, and marks both served now. Under their rows' locks (taken in one order): a second
 * server claiming for the same owner or network waits until the first commits, and its
 * count (a statement begun after that) sees the first's job.
 */
async function claimShared(db: Kysely<Database>, job: SharedJob, lockMs: number, perOwner: number, perNetwork: number): Promise<JobRow | undefined> {
  const keys = [job.owner, job.network].filter((key): key is string => key !== null).sort();
  return db.transaction().execute(async (tx) => {
    for (const key of keys) await sql`insert into job_owners (owner) values (${key}) on conflict (owner) do nothing`.execute(tx);
    await sql`select owner from job_owners where owner in (${sql.join(keys)}) order by owner for update`.execute(tx);
    const result = await sql<JobRow>`
      update jobs set status = 'running', attempts = attempts + 1,
        locked_until = now() + ${`${lockMs} milliseconds`}::interval, updated_at = now()
      where id = ${job.id} and ${ready('jobs')}
        and (${job.owner}::text is null or ${runningOf(sql`${job.owner}::text`, sql`r.owner`, sql`${job.lane}::text`)} < ${perOwner})
        and (${job.network}::text is null or ${runningOf(sql`${job.network}::text`, sql`r.network`, sql`${job.lane}::text`)} < ${perNetwork})
      returning ${RETURNED}`.execute(tx);
    const row = result.rows[0];
    if (!row) return undefined;
    // a turn charged ahead (chargeOwners) stays ahead
    await sql`update job_owners set last_turn = greatest(last_turn, clock_timestamp()) where owner in (${sql.join(keys)})`.execute(tx);
    return rowOf(row);
  });
}

/**
 * The job cost more than a turn (a file that ran into the converter's time limit): its
 * owner's and its network's next turns move `ms` later than they were, or than now, so they
 * come after everyone served meanwhile; each such job pushes them further.
 */
export async function chargeOwners(db: Kysely<Database>, id: string, ms: number): Promise<void> {
  await sql`
    update job_owners set last_turn = greatest(last_turn, clock_timestamp()) + ${`${ms} milliseconds`}::interval
    where owner in (select owner from jobs where id = ${id} and owner is not null union select network from jobs where id = ${id} and network is not null)`.execute(db);
}

export async function extendLock(db: Kysely<Database>, id: string, lockMs: number): Promise<void> {
  await sql`update jobs set locked_until = now() + ${`${lockMs} milliseconds`}::interval where id = ${id} and status = 'running'`.execute(db);
}

/**
 * The attempt of `revision` ended: the job is `status` now, unless a newer payload replaced
 * its own meanwhile; then it is queued again at once, with its attempts afresh. True when the job took `status`.
 */
async function endAttempt(
  db: Kysely<Database>, id: string, revision: number, status: 'done' | 'failed' | 'queued',
  change: { error?: string | null; runAfter?: Date; giveBackAttempt?: boolean },
): Promise<boolean> {
  const runAfter = change.runAfter ?? new Date();
  const result = await sql<{ status: string }>`
    update jobs set
      status = case when revision = ${revision}::integer then ${status}::text else 'queued' end,
      attempts = case when revision <> ${revision}::integer then 0 when ${change.giveBackAttempt ?? false}::boolean then greatest(attempts - 1, 0) else attempts end,
      run_after = case when revision = ${revision}::integer then ${runAfter}::timestamptz else now() end,
      last_error = case when revision = ${revision}::integer then ${change.error ?? null}::text else null end,
      locked_until = null, updated_at = now()
    where id = ${id}
    returning status`.execute(db);
  return result.rows[0]?.status === status;
}

export async function finishJob(db: Kysely<Database>, id: string, revision = 0): Promise<void> {
  await endAttempt(db, id, revision, 'done', { error: null });
}

/** False when a newer payload had replaced the job's meanwhile: it is queued again instead, and nothing failed. */
export async function failJob(db: Kysely<Database>, id: string, error: string, revision = 0): Promise<boolean> {
  return endAttempt(db, id, revision, 'failed', { error });
}

/** `giveBackAttempt`: the attempt does not count (the server's stop cut it short; the job did not fail). */
export async function retryJob(
  db: Kysely<Database>, id: string, error: string, delayMs: number, { giveBackAttempt = false, revision = 0 } = {},
): Promise<void> {
  await endAttempt(db, id, revision, 'queued', { error, runAfter: new Date(Date.now() + delayMs), giveBackAttempt });
}

/** A question's document was removed: its conversion, if still waiting, is no one's any more. */
export async function cancelQueuedJob(db: Kysely<Database>, slotKey: string): Promise<void> {
  await db.deleteFrom('jobs').where('slot_key', '=', slotKey).where('status', '=', 'queued').execute();
}

/** Jobs that ended (done or failed) before `before`: the document and PDF rows keep what the applicant sees. */
export async function deleteFinishedJobs(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('jobs').where('status', 'in', ['done', 'failed']).where('updated_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
