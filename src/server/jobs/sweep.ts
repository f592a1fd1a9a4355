import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { attemptLimits } from '../accounts/attempt-limits.ts';
import { deleteExpiredCodes } from '../db/repositories/account-code-repository.ts';
import { currentPdfKeys } from '../db/repositories/application-pdf-repository.ts';
import { deleteFinishedJobs } from '../db/repositories/job-repository.ts';
import { deleteMailsBefore } from '../db/repositories/mail-repository.ts';
import { deleteOutboxBefore } from '../db/repositories/outbox-repository.ts';
import { deleteSpentPrefills } from '../db/repositories/prefill-repository.ts';
import { deleteStaleRateLimits } from '../db/repositories/rate-limit-repository.ts';
import { deleteExpiredSessions } from '../db/repositories/session-repository.ts';
import { deleteUploadSlots, expiredUploadSlots } from '../db/repositories/upload-slot-repository.ts';
import type { Database } from '../db/tables.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import type { JobDefinition } from './job-queue.ts';

export const SWEEP_EVERY_MS = 10 * 60_000;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** after an upload slot's POST expired: a POST begun just before may still be arriving */
const UPLOAD_SLACK_MS = 5 * MINUTE;
/** a PDF copy just written is not yet the current one (the job stores it, then records it) */
const PDF_GRACE_MS = 10 * MINUTE;
const FINISHED_JOBS_KEPT_MS = DAY;
/** mails without SMTP: their codes and links expired long before */
const OUTBOX_KEPT_MS = DAY;
/** an expired code still answers "expired" for a day, then it goes */
const CODES_KEPT_MS = DAY;
const BATCH = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface SweepDeps {
  db: Kysely<Database>;
  storage: ObjectStorage;
  log: FastifyBaseLogger;
  /** the server's idle limit for sessions */
  sessionIdleMs: number;
  /** where mails are also written without SMTP on the embedded database */
  outboxDir?: string | undefined;
}

export type SweepCounts = Record<string, number>;

/**
 * What nothing else removes: uploads never registered, superseded PDF copies, finished
 * jobs, spent rate-limit counters, used or expired prefill tokens, expired sessions and
 * codes, old outbox mail. Each part runs on its own: one failing leaves the others done,
 * and the next sweep tries it again. Safe to run twice at once (deleting twice is a no-op).
 */
export async function sweep(deps: SweepDeps, now = new Date()): Promise<SweepCounts> {
  const { db, storage, log } = deps;
  const at = (ms: number) => new Date(now.getTime() - ms);
  const counts: SweepCounts = {};
  const failed: string[] = [];
  const part = async (name: string, work: () => Promise<number>) => {
    try {
      counts[name] = await work();
    } catch (error) {
      failed.push(name);
      log.warn({ err: error, part: name }, 'sweep part failed; the next sweep tries again');
    }
  };

  await part('uploads', async () => {
    let removed = 0;
    for (;;) {
      const keys = await expiredUploadSlots(db, at(UPLOAD_SLACK_MS), BATCH);
      if (!keys.length) return removed;
      const gone: string[] = [];
      for (const key of keys) {
        // a slot whose object could not be removed stays, for the next sweep
        if (await storage.delete(key).then(() => true, () => false)) gone.push(key);
      }
      await deleteUploadSlots(db, gone);
      removed += gone.length;
      if (gone.length < keys.length) return removed;
    }
  });
  await part('pdfs', () => sweepPdfs(db, storage, at(PDF_GRACE_MS)));
  await part('jobs', () => deleteFinishedJobs(db, at(FINISHED_JOBS_KEPT_MS)));
  // each kind's counters once its own window ended (an inbox's day outlives a sign-up's hour)
  const longestWindow = Math.max(...Object.values(attemptLimits).map((limit) => limit.windowMs));
  const windowsEnded = Object.fromEntries(Object.entries(attemptLimits).map(([kind, limit]) => [kind, at(limit.windowMs)]));
  await part('rateLimits', () => deleteStaleRateLimits(db, windowsEnded, at(longestWindow)));
  await part('prefills', () => deleteSpentPrefills(db, now));
  await part('sessions', () => deleteExpiredSessions(db, at(deps.sessionIdleMs), now));
  await part('codes', () => deleteExpiredCodes(db, at(CODES_KEPT_MS)));
  await part('outbox', () => deleteOutboxBefore(db, at(OUTBOX_KEPT_MS)));
  // a mail's retries end within the hour; its ticket is not asked about a day later
  await part('mails', () => deleteMailsBefore(db, at(OUTBOX_KEPT_MS)));
  if (deps.outboxDir) await part('outboxFiles', () => deleteFilesBefore(deps.outboxDir!, at(OUTBOX_KEPT_MS)));
  if (failed.length) throw new Error(`sweep parts failed: ${failed.join(', ')}`);
  return counts;
}

/** PDF copies (pdfs/<applicant>/...) other than the one each applicant's copy points at. */
async function sweepPdfs(db: Kysely<Database>, storage: ObjectStorage, writtenBefore: Date): Promise<number> {
  let removed = 0;
  let batch: { key: string; applicantId: string }[] = [];
  const flush = async () => {
    const current = await currentPdfKeys(db, [...new Set(batch.map((item) => item.applicantId))]);
    for (const item of batch) {
      if (current.get(item.applicantId) === item.key) continue;
      await storage.delete(item.key);
      removed++;
    }
    batch = [];
  };
  for await (const object of storage.list('pdfs/')) {
    const applicantId = object.key.split('/')[1] ?? '';
    if (!UUID.test(applicantId) || object.lastModified >= writtenBefore) continue;
    batch.push({ key: object.key, applicantId });
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length) await flush();
  return removed;
}

async function deleteFilesBefore(dir: string, before: Date): Promise<number> {
  let removed = 0;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile() && info.mtime < before) {
      await rm(path, { force: true });
      removed++;
    }
  }
  return removed;
}

/** The sweep as a job of the queue (kind `sweep`, queued every SWEEP_EVERY_MS by JobQueue.every). */
export function sweepJob(deps: SweepDeps): JobDefinition {
  return {
    lane: 'maintenance',
    // a failed sweep is simply run again by the next slot's
    maxAttempts: 1,
    async run() {
      const counts = await sweep(deps);
      deps.log.info({ removed: counts }, 'sweep done');
    },
    async onGiveUp() {},
  };
}
