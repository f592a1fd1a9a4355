import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { WebhookConfig } from '../config.ts';
import { insertJob } from '../db/repositories/job-repository.ts';
import {
  findWebhookEvent, insertWebhookEvent, recordWebhookAttempt, submissionsWithoutEvent, submittedAt, webhookEventIdsSince,
} from '../db/repositories/webhook-repository.ts';
import type { Database } from '../db/tables.ts';
import type { JobDefinition, JobQueue } from '../jobs/job-queue.ts';
import { redactAddress } from '../lib/redact.ts';
import { webhookHeaders } from './webhook-signature.ts';

export const APPLICATION_SUBMITTED = 'application.submitted';

/**
 * The Standard Webhooks retry schedule after the first attempt: 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h, 10 h (about a day in all), as multiples of JOB_RETRY_DELAY_MS (2 s by default),
 * so tests can run it in milliseconds.
 */
export const WEBHOOK_RETRY_FACTORS = [2.5, 150, 900, 3600, 9000, 18000, 18000] as const;
export const WEBHOOK_JOB = { kind: 'webhook', lane: 'webhooks', maxAttempts: WEBHOOK_RETRY_FACTORS.length + 1 } as const;

/**
 * The event announcing a submitted application: who (the applicant's id and e-mail) and
 * when; the office reads the answers by export or service link. Its body is stored and
 * sent byte for byte on every attempt and replay, under one webhook-id, so the receiver's
 * signature check and its de-duplication by id both hold.
 */
export async function recordSubmittedEvent(db: Kysely<Database>, submission: { applicant_id: string; email: string; submitted_at: Date }): Promise<string | undefined> {
  const id = `msg_${randomUUID().replaceAll('-', '')}`;
  const body = JSON.stringify({
    type: APPLICATION_SUBMITTED,
    timestamp: submission.submitted_at.toISOString(),
    data: { applicant_id: submission.applicant_id, email: submission.email, submitted_at: submission.submitted_at.toISOString() },
  });
  return insertWebhookEvent(db, { id, type: APPLICATION_SUBMITTED, applicantId: submission.applicant_id, body });
}

/** Queues one delivery of an event (a replay is one more; the receiver drops ids it has seen). */
export async function queueDelivery(db: Kysely<Database>, eventId: string): Promise<void> {
  await insertJob(db, { kind: WEBHOOK_JOB.kind, lane: WEBHOOK_JOB.lane, payload: { event: eventId }, maxAttempts: WEBHOOK_JOB.maxAttempts });
}

/**
 * Replays from the command line (`npm run webhooks`): by id, or every event since a time,
 * first making the events of submissions that have none (submitted before webhooks were set
 * up, or whose event could not be recorded). Returns the ids queued.
 */
export async function replayEvents(db: Kysely<Database>, request: { ids?: string[]; since?: Date }): Promise<{ queued: string[]; made: number; unknown: string[] }> {
  const queued: string[] = [];
  const unknown: string[] = [];
  let made = 0;
  for (const id of request.ids ?? []) {
    if (await findWebhookEvent(db, id)) queued.push(id);
    else unknown.push(id);
  }
  if (request.since) {
    for (const submission of await submissionsWithoutEvent(db, request.since)) {
      if (await recordSubmittedEvent(db, submission)) made++;
    }
    queued.push(...(await webhookEventIdsSince(db, request.since)).filter((id) => !queued.includes(id)));
  }
  for (const id of queued) await queueDelivery(db, id);
  return { queued, made, unknown };
}

/**
 * One signed POST; each attempt is recorded. A 2xx ends the job; anything else is retried:
 * no answer within the config's time, and an attempt the server's stop cut short (the
 * receiver drops the repeat by its id).
 */
function deliveryJob(db: Kysely<Database>, config: WebhookConfig | undefined): JobDefinition {
  return {
    lane: WEBHOOK_JOB.lane,
    maxAttempts: WEBHOOK_JOB.maxAttempts,
    retryFactors: WEBHOOK_RETRY_FACTORS,
    async run(payload, { signal }) {
      if (!config) throw new Error('WEBHOOK_URL and WEBHOOK_SECRET are not set on this server');
      const event = await findWebhookEvent(db, (payload as { event: string }).event);
      if (!event) return; // deleted since: nothing to send
      const started = Date.now();
      let statusCode: number | null = null;
      let error: string | null = null;
      // the attempt's own signal, ended by its time limit or the queue's stop (AbortSignal.any
      // would tie one signal per attempt to the stop's for the server's life: nodejs/node#55351)
      const attempt = new AbortController();
      const timer = setTimeout(() => attempt.abort(new Error(`no answer within ${config.timeoutMs} ms`)), config.timeoutMs);
      const stop = () => attempt.abort(signal.reason);
      if (signal.aborted) stop();
      signal.addEventListener('abort', stop, { once: true });
      try {
        const response = await fetch(config.url, {
          method: 'POST',
          headers: webhookHeaders(config.secret, event.id, event.body),
          body: event.body,
          redirect: 'manual', // a redirect is not a delivery: the office fixes its address
          signal: attempt.signal,
        });
        statusCode = response.status;
        await response.body?.cancel(); // the receiver's answer is not read
        if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
      } catch (caught) {
        const cause = (caught as { cause?: { code?: string } }).cause?.code;
        // an abort throws its reason: the time limit's, or the stop's
        error = redactAddress(`${caught instanceof Error ? caught.message : String(caught)}${cause ? ` (${cause})` : ''}`);
      } finally {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
      }
      await recordWebhookAttempt(db, { eventId: event.id, statusCode, error, durationMs: Date.now() - started });
      if (error) throw new Error(`webhook ${event.id}: ${error}`);
    },
    async onGiveUp() {
      // the attempts are recorded; `npm run webhooks -- --replay <id>` sends it again
    },
  };
}

/**
 * Signed events to the office's systems: with WEBHOOK_URL and WEBHOOK_SECRET, a
 * submit records `application.submitted` and queues its delivery. The applicant's submit
 * never waits for it and never fails by it.
 */
export function createWebhooks(options: { db: Kysely<Database>; jobs: JobQueue; config: WebhookConfig | undefined; log: FastifyBaseLogger }) {
  const { db, jobs, config, log } = options;
  jobs.define(WEBHOOK_JOB.kind, deliveryJob(db, config));

  async function announce(applicantId: string): Promise<void> {
    const submission = await submittedAt(db, applicantId);
    if (!submission) return;
    const id = await recordSubmittedEvent(db, { applicant_id: applicantId, ...submission });
    if (id) await jobs.enqueue(WEBHOOK_JOB.kind, { event: id });
  }

  return {
    enabled: config !== undefined,
    /** Called once a submit has committed; returns at once. */
    applicationSubmitted(applicantId: string): void {
      if (!config) return;
      announce(applicantId).catch((error) => log.error({ err: error, applicant: applicantId }, 'application.submitted not recorded; `npm run webhooks -- --since` sends it'));
    },
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
