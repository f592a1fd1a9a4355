import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import { addToOutbox } from '../db/repositories/outbox-repository.ts';
import type { Database } from '../db/tables.ts';
import { PRIVATE_FILE, privateDir } from '../lib/private-files.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** the name it is sent under, in its language (text/mail.json "sender_name"); MAIL_FROM gives the address */
  senderName?: string | null;
  /** headers beyond From, To and Subject, as sent (a reminder's List-Unsubscribe and List-Unsubscribe-Post) */
  headers?: Record<string, string>;
  /** the same on every attempt of one message */
  messageId?: string;
}

/** MAIL_FROM's address ("Admissions <no-reply@example.edu>" or the address alone), under `name` when there is one. */
export function senderOf(mailFrom: string, name: string | null | undefined): string | { name: string; address: string } {
  if (!name) return mailFrom;
  return { name, address: /<([^>]+)>/.exec(mailFrom)?.[1]?.trim() ?? mailFrom.trim() };
}

export interface Mailer {
  /** Resolves once the message is handed over; rejects when it could not be. */
  send(message: MailMessage): Promise<void>;
  /** Reaches the mail server as a send would, sending nothing (a stand-in mail's attempt). */
  check(): Promise<void>;
  close(): void;
}

/**
 * Without SMTP on the embedded database, mails are also written as files to
 * DATA_DIR/outbox (the server's user only): PGlite is one process, so `npm run outbox`
 * cannot read the table while the server runs.
 */
export function outboxDirOf(config: Pick<Config, 'smtpUrl' | 'dataDir'>, dbKind: string): string | undefined {
  return !config.smtpUrl && dbKind === 'pglite' ? join(config.dataDir, 'outbox') : undefined;
}

/**
 * Real mail over SMTP_URL. Without it (a laptop, a trial) each message is kept in the
 * outbox table (and outboxDir): `npm run outbox` shows them. Never in the log: a
 * confirmation code or a reset link there would be readable by whoever reads logs.
 */
export function createMailer(options: { smtpUrl?: string | undefined; from: string; db: Kysely<Database>; log: FastifyBaseLogger; outboxDir?: string | undefined }): Mailer {
  const { smtpUrl, from, db, log, outboxDir } = options;
  if (!smtpUrl) {
    return {
      async send(message) {
        await addToOutbox(db, { recipient: message.to, subject: message.subject, body: message.text, headers: message.headers ?? null });
        if (outboxDir) {
          await privateDir(outboxDir);
          const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.txt`;
          const headers = Object.entries(message.headers ?? {}).map(([header, value]) => `${header}: ${value}\n`).join('');
          await writeFile(join(outboxDir, name), `To: ${message.to}\nSubject: ${message.subject}\n${headers}\n${message.text}\n`, { mode: PRIVATE_FILE });
        }
        // not the subject: a confirmation code's subject holds the code
        log.info({ mailTo: message.to }, 'mail kept in the outbox (SMTP_URL is not set)');
      },
      async check() {},
      close() {},
    };
  }
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    // fail fast when the mail server is down: the mail job tries again later. These go next
    // to the url: a second argument to createTransport is message defaults, not transport
    // options (there they were ignored, and a silent server held a sign-up for 30 s)
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 10000,
  });
  return {
    async send(message) {
      try {
        await transport.sendMail({
          from: senderOf(from, message.senderName), to: message.to, subject: message.subject, text: message.text,
          ...(message.headers ? { headers: message.headers } : {}), ...(message.messageId ? { messageId: message.messageId } : {}),
        });
      } catch (error) {
        log.warn({ err: error, mailTo: message.to }, 'mail could not be sent');
        throw error;
      }
    },
    async check() {
      await transport.verify();
    },
    close() {
      transport.close();
    },
  };
}
