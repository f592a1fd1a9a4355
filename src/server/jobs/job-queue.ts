import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  cancelQueuedJob, chargeOwners, claimJob, extendLock, failJob, finishJob, insertJob, insertRunningJob, retryJob, type JobRow,
} from '../db/repositories/job-repository.ts';
import type { Database } from '../db/tables.ts';
import { redactAddress } from '../lib/redact.ts';

/** A failure that no retry can fix (a file that is not what it claims): the job ends at once. */
export class PermanentJobError extends Error {}

export interface JobContext {
  attempt: number;
  lastAttempt: boolean;
  /**
   * aborted when the queue stops: a job waiting on someone else (a receiver) ends its attempt;
   * one that ends with an error once this is aborted is run again after the restart, the attempt not counted
   */
  signal: AbortSignal;
  /** the job cost more than a turn: its owner's and network's next turns come `ms` later (see chargeOwners) */
  charge(ms: number): Promise<void>;
}

export interface JobDefinition {
  lane: string;
  maxAttempts: number;
  run(payload: unknown, context: JobContext): Promise<void>;
  /** pauses before each retry, as multiples of JOB_RETRY_DELAY_MS (the last repeats); default 1, 5, 15 */
  retryFactors?: readonly number[];
  /** called once when the job ends failed (after its last attempt, or a permanent error) */
  onGiveUp(payload: unknown, error: Error): Promise<void>;
}

/** What a job cut short by the stop records as its attempt's end. */
const STOPPING = 'the server is stopping';

/** Retry pauses as multiples of the first (2 s, 10 s, 30 s by default). */
const RETRY_FACTORS = [1, 5, 15];

/**
 * How many jobs of one owner (an applicant's inbox) run at once in a lane, across all
 * servers: one Word file and one image or PDF. The rest wait their owner's next turn.
 */
export const JOBS_RUNNING_PER_OWNER = 1;

/**
 * How many jobs of one client network run at once in a lane, across all servers: a school's
 * applicants share one network, and an attacker's many inboxes on one network hold no more.
 */
export const JOBS_RUNNING_PER_NETWORK = 4;

export interface EnqueueOptions {
  /** whose work it is: owners are served in turn, JOBS_RUNNING_PER_OWNER at a time */
  owner?: string;
  /** the client network it came from: networks are served in turn too, as many at a time */
  network?: string;
  /** at most one job of this key queued or running: queueing again replaces its payload (see insertJob) */
  slotKey?: string;
}

/**
 * Durable jobs on the application's own database (PostgreSQL or PGlite): they survive a
 * restart, are retried, and each runs on one server even when several share the
 * database. Lanes bound how many jobs of a kind run at once (one LibreOffice, a few
 * image conversions), and owners take turns (claimJob): one applicant's files cannot hold
 * the converters of everyone; why not pg-boss is in docs/adr/adr-005-our-own-job-queue.md.
 */
export class JobQueue {
  private readonly definitions = new Map<string, JobDefinition>();
  private readonly running = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  /** the poll under way, if any: a stop waits for it, as its claim may still return a job */
  private polling: Promise<void> | null = null;
  /** a poke came while a poll was claiming: it looks again before it sleeps */
  private pollAgain = false;
  private readonly active = new Set<Promise<void>>();
  private readonly recurring: { kind: string; everyMs: number }[] = [];
  private readonly recurringTimers: NodeJS.Timeout[] = [];
  private stopping = new AbortController();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly options: { lanes: Record<string, number>; pollMs: number; lockMs: number; retryDelayMs?: number; perOwner?: number },
  ) {}

  define(kind: string, definition: JobDefinition): void {
    this.definitions.set(kind, definition);
  }

  async enqueue(kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<string> {
    const definition = this.definitions.get(kind);
    if (!definition) throw new Error(`unknown job kind ${kind}`);
    const id = await insertJob(this.db, { kind, lane: definition.lane, payload, maxAttempts: definition.maxAttempts, ...options });
    this.poke();
    return id!;
  }

  /** The job of this slot, if it is still waiting, will not run (what it was for is gone). */
  async cancelQueued(slotKey: string): Promise<void> {
    await cancelQueuedJob(this.db, slotKey);
  }

  /**
   * Queues a job and makes its first attempt at once on this server, even one that runs no
   * jobs (RUN_JOBS=false) or has not started its queue: light work whose caller wants it
   * done now (an e-mail). Retries go through the queue like any job's. Resolves with the
   * job's id and the first attempt, which never rejects.
   */
  async enqueueNow(kind: string, payload: unknown): Promise<{ id: string; firstAttempt: Promise<void> }> {
    const definition = this.definitions.get(kind);
    if (!definition) throw new Error(`unknown job kind ${kind}`);
    const job = await insertRunningJob(this.db, { kind, lane: definition.lane, payload, maxAttempts: definition.maxAttempts }, this.options.lockMs);
    const firstAttempt = this.execute(job).catch((error) => this.log.warn({ err: error, job: job.id }, 'a job\'s first attempt could not be recorded'));
    this.active.add(firstAttempt);
    void firstAttempt.finally(() => this.active.delete(firstAttempt));
    return { id: job.id, firstAttempt };
  }

  /** Queues a job unless one with this singletonKey was ever queued (by any server); undefined then. */
  async enqueueOnce(kind: string, payload: unknown, singletonKey: string | undefined): Promise<string | undefined> {
    const definition = this.definitions.get(kind);
    if (!definition) throw new Error(`unknown job kind ${kind}`);
    const id = await insertJob(this.db, { kind, lane: definition.lane, payload, maxAttempts: definition.maxAttempts, ...(singletonKey ? { singletonKey } : {}) });
    if (id) this.poke();
    return id;
  }

  /**
   * Runs a job of this kind once every `everyMs` across all servers: each server, every
   * `everyMs` after it starts, queues the job of the current time slot ("<kind>:<slot>"),
   * and the unique key lets only the first of them in; the queue's locking then gives it to
   * one server. The first run is one period after start, not at start: a restart is no sweep.
   */
  every(kind: string, everyMs: number): void {
    this.recurring.push({ kind, everyMs });
  }

  /** The job of the current slot of a recurring kind (what the timer queues). */
  enqueueCurrentSlot(kind: string, everyMs: number, now = Date.now()): Promise<string | undefined> {
    return this.enqueueOnce(kind, {}, `${kind}:${Math.floor(now / everyMs)}`);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    if (this.stopping.signal.aborted) this.stopping = new AbortController();
    this.schedule(0);
    for (const { kind, everyMs } of this.recurring) {
      const timer = setInterval(() => {
        this.enqueueCurrentSlot(kind, everyMs).catch((error) => this.log.warn({ err: error, kind }, 'could not queue a periodic job'));
      }, everyMs);
      timer.unref();
      this.recurringTimers.push(timer);
    }
  }

  /**
   * Stops taking jobs, tells the running ones (their `signal`), and waits for them and for a
   * poll under way (a running job's lock lapses if we are killed instead). Only then may the
   * caller close the database: a job still recording its end there would find it closed and
   * stay locked, so that the next start could not take it until its lock lapsed.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const timer of this.recurringTimers.splice(0)) clearInterval(timer);
    this.stopping.abort(new Error(STOPPING));
    while (this.polling || this.active.size > 0) await Promise.allSettled([this.polling, ...this.active]);
  }

  /** Look for work now (a job was just queued here). */
  poke(): void {
    if (this.stopped) return;
    // a poll under way looks again before it sleeps (a timer set now would be replaced by its sleep)
    if (this.polling) this.pollAgain = true;
    else this.schedule(0);
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), delay);
    this.timer.unref();
  }

  /**
   * Claims jobs while a lane has room. One poll at a time: a job ending during a claim pokes
   * the queue, and a second poll then would see the same room (the first's job not yet
   * counted) and claim past the lane's limit (three Word conversions at once in a lane of one).
   */
  private async poll(): Promise<void> {
    if (this.stopped) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = this.claimWhileRoom();
    try {
      await this.polling;
    } finally {
      this.polling = null;
    }
    if (!this.stopped) this.schedule(this.options.pollMs);
  }

  private async claimWhileRoom(): Promise<void> {
    try {
      do {
        this.pollAgain = false;
        for (let lanes = this.lanesWithRoom(); !this.stopped && lanes.length > 0; lanes = this.lanesWithRoom()) {
          const job = await claimJob(this.db, lanes, this.options.lockMs, this.options.perOwner ?? JOBS_RUNNING_PER_OWNER, JOBS_RUNNING_PER_NETWORK);
          if (!job) break;
          if (this.stopped) {
            // claimed as the stop began: given back untried, for the next start (here or elsewhere) at once
            await retryJob(this.db, job.id, STOPPING, 0, { giveBackAttempt: true, revision: job.revision });
            break;
          }
          this.launch(job);
        }
      } while (this.pollAgain && !this.stopped);
    } catch (error) {
      this.log.warn({ err: error }, 'job poll failed; trying again');
    }
  }

  /** The lanes running fewer jobs here than their limit. */
  private lanesWithRoom(): string[] {
    return Object.entries(this.options.lanes).filter(([lane, limit]) => (this.running.get(lane) ?? 0) < limit).map(([lane]) => lane);
  }

  private launch(job: JobRow): void {
    this.running.set(job.lane, (this.running.get(job.lane) ?? 0) + 1);
    const work = this.execute(job).finally(() => {
      this.running.set(job.lane, (this.running.get(job.lane) ?? 1) - 1);
      this.active.delete(work);
      this.poke();
    });
    this.active.add(work);
  }

  private async execute(job: JobRow): Promise<void> {
    const definition = this.definitions.get(job.kind);
    if (!definition) {
      await failJob(this.db, job.id, `no handler for ${job.kind}`);
      return;
    }
    const heartbeat = setInterval(() => void extendLock(this.db, job.id, this.options.lockMs).catch(() => {}), this.options.lockMs / 3);
    heartbeat.unref();
    const lastAttempt = job.attempts >= job.max_attempts;
    const { signal } = this.stopping; // a restart makes a new one
    try {
      const charge = (ms: number) => chargeOwners(this.db, job.id, ms);
      await definition.run(job.payload, { attempt: job.attempts, lastAttempt, signal, charge });
      await finishJob(this.db, job.id, job.revision);
    } catch (caught) {
      const error = caught instanceof Error ? caught : new Error(String(caught));
      // a printer's error names the address it opened, service token and all
      error.message = redactAddress(error.message);
      if (signal.aborted && !(error instanceof PermanentJobError)) {
        // the server's stop ended it, not the job's own trouble: the attempt is given back, and
        // the job runs again as soon as a server takes jobs (else a few restarts would use up a
        // webhook's day of retries, or end a last attempt as failed)
        this.log.info({ job: job.id, kind: job.kind, err: error }, 'job cut short by the stop; it runs again after the restart');
        await retryJob(this.db, job.id, error.message, 0, { giveBackAttempt: true, revision: job.revision });
      } else if (error instanceof PermanentJobError || lastAttempt) {
        // a newer payload replaced this one meanwhile: the job runs again for it, nothing failed
        if (!(await failJob(this.db, job.id, error.message, job.revision))) return;
        this.log.warn({ job: job.id, kind: job.kind, err: error }, 'job failed for good');
        await definition.onGiveUp(job.payload, error).catch((giveUpError) => this.log.error({ err: giveUpError }, 'job give-up handler failed'));
      } else {
        this.log.info({ job: job.id, kind: job.kind, err: error }, 'job failed; it will be retried');
        const factors = definition.retryFactors ?? RETRY_FACTORS;
        await retryJob(this.db, job.id, error.message, (this.options.retryDelayMs ?? 2000) * factors[Math.min(job.attempts - 1, factors.length - 1)]!, { revision: job.revision });
      }
    } finally {
      clearInterval(heartbeat);
    }
  }
}
