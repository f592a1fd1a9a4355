import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { endMail, fillMail, insertMail, mailState, noteMailFailure, startMailAttempt } from '../db/repositories/mail-repository.ts';
import { insertJob } from '../db/repositories/job-repository.ts';
import type { Database } from '../db/tables.ts';
import type { JobDefinition, JobQueue } from '../jobs/job-queue.ts';
import type { Mailer, MailMessage } from './mailer.ts';

/** What the applicant's screen is told about a mail (schemas/api/accounts.json, mailStatus). */
export type MailStatus = 'pending' | 'delayed' | 'sent' | 'failed';

/** Something to do once a mail is handed over, named so it can wait in the database. */
export interface AfterSent {
  name: string;
  args: unknown;
}

/**
 * Retries at 2 s, 10 s, 30 s, 1, 2, 5, 10 and 30 minutes (JOB_RETRY_DELAY_MS = 2000): a
 * mail server that is down for most of an hour still gets the mail out. A confirmation
 * code's window starts when its mail goes, so a late code is not a dead one.
 */
export const MAIL_RETRY_FACTORS = [1, 5, 15, 30, 60, 150, 300, 900] as const;
const MAIL_JOB = 'mail';

/**
 * Every e-mail is a job: the message waits in `mails` until the mailer (SMTP or
 * the outbox) takes it. The first attempt is made at once by the server that queued it;
 * retries with back-off by whichever server runs jobs. The mail's id is a ticket the
 * applicant's screen asks about, so a delayed mail is said, not silent.
 */
export function createMailQueue(options: { db: Kysely<Database>; jobs: JobQueue; mailer: Mailer; log: FastifyBaseLogger }) {
  const { db, jobs, mailer, log } = options;
  const afterSentHandlers = new Map<string, (args: unknown) => Promise<void>>();

  const definition: JobDefinition = {
    lane: 'mail',
    maxAttempts: MAIL_RETRY_FACTORS.length + 1,
    retryFactors: MAIL_RETRY_FACTORS,
    async run(payload) {
      const { mail: id } = payload as { mail: string };
      const mail = await startMailAttempt(db, id);
      if (!mail || mail.status !== 'queued') return; // swept, or sent by an attempt whose lock lapsed
      try {
        if (mail.recipient === null) await mailer.check();
        else await mailer.send({ to: mail.recipient, subject: mail.subject ?? '', text: mail.body ?? '', senderName: mail.sender_name });
      } catch (error) {
        await noteMailFailure(db, id, error instanceof Error ? error.message : String(error));
        throw error;
      }
      const after = mail.after_sent as AfterSent | null;
      if (after) {
        await afterSentHandlers.get(after.name)?.(after.args).catch((error) => log.warn({ err: error, after: after.name }, 'after-sent step failed'));
      }
      await endMail(db, id, 'sent');
    },
    async onGiveUp(payload, error) {
      await endMail(db, (payload as { mail: string }).mail, 'failed', error.message);
    },
  };
  jobs.define(MAIL_JOB, definition);

  async function queue(mail: { recipient: string | null; subject: string | null; body: string | null; senderName?: string | null; afterSent?: AfterSent }) {
    const id = await insertMail(db, { ...mail, afterSent: mail.afterSent });
    const { firstAttempt } = await jobs.enqueueNow(MAIL_JOB, { mail: id });
    return { ticket: id, firstAttempt };
  }

  return {
    /** Queues a mail and starts its first attempt; resolves with its ticket once queued (not sent). */
    async send(message: MailMessage, afterSent?: AfterSent): Promise<string> {
      return (await queue({ recipient: message.to, subject: message.subject, body: message.text, senderName: message.senderName ?? null, ...(afterSent ? { afterSent } : {}) })).ticket;
    },

    /**
     * A stand-in for a mail not sent (no such account): a job that reaches the mail server
     * and sends nothing, so its ticket goes pending, delayed and sent exactly as a real
     * mail's would.
     */
    async standIn(): Promise<string> {
      return (await queue({ recipient: null, subject: null, body: null })).ticket;
    },

    /**
     * A ticket at once, the mail made in the background by `compose` (undefined: none is
     * due, and a stand-in goes instead). The caller answers after the same one insert either
     * way, so neither the answer, its time nor its ticket tells whether an account exists.
     */
    async sendLater(compose: () => Promise<{ message: MailMessage; afterSent?: AfterSent } | undefined>): Promise<string> {
      const ticket = await insertMail(db, { recipient: null, subject: null, body: null, afterSent: undefined });
      void (async () => {
        const mail = await compose();
        if (mail) await fillMail(db, ticket, { recipient: mail.message.to, subject: mail.message.subject, body: mail.message.text, senderName: mail.message.senderName ?? null, afterSent: mail.afterSent });
        await jobs.enqueueNow(MAIL_JOB, { mail: ticket });
      })().catch(async (error) => {
        log.warn({ err: error }, 'a mail could not be queued');
        await endMail(db, ticket, 'failed', 'not queued').catch(() => {});
      });
      return ticket;
    },

    /** Registers what a mail's afterSent names: run once the mail is handed over. */
    onSent(name: string, handler: (args: unknown) => Promise<void>): void {
      afterSentHandlers.set(name, handler);
    },

    /** pending: not yet tried, or its first try is under way; delayed: a try failed and it is retried. */
    async status(ticket: string): Promise<MailStatus | undefined> {
      const state = await mailState(db, ticket);
      if (!state) return undefined;
      if (state.status !== 'queued') return state.status;
      return state.last_error ? 'delayed' : 'pending';
    },
  };
}

export type MailQueue = ReturnType<typeof createMailQueue>;

/**
 * Queues a mail inside the caller's transaction: it goes only if that commits, and goes even
 * if this server stops right after (the queue's next poll, on any server, sends it).
 */
export async function queueMailIn(db: Transaction<Database>, message: MailMessage): Promise<string> {
  const id = await insertMail(db, { recipient: message.to, subject: message.subject, body: message.text, senderName: message.senderName ?? null, afterSent: undefined });
  await insertJob(db, { kind: MAIL_JOB, lane: 'mail', payload: { mail: id }, maxAttempts: MAIL_RETRY_FACTORS.length + 1 });
  return id;
}
