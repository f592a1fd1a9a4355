import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import { addToOutbox } from '../db/repositories/outbox-repository.ts';
import type { Database } from '../db/tables.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Resolves once the message is handed over; rejects when it could not be. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * Real mail over SMTP_URL. Without it (a laptop, a trial) each message is written to the
 * server log and kept in the outbox table, so the confirmation code can still be read.
 */
export function createMailer(options: { smtpUrl?: string | undefined; from: string; db: Kysely<Database>; log: FastifyBaseLogger }): Mailer {
  const { smtpUrl, from, db, log } = options;
  if (!smtpUrl) {
    return {
      async send(message) {
        await addToOutbox(db, { recipient: message.to, subject: message.subject, body: message.text });
        log.info({ mailTo: message.to, subject: message.subject }, 'mail kept in the outbox (SMTP_URL is not set)');
        // readable on a laptop console: this is how a trial user sees the confirmation code
        console.log(`\n----- mail to ${message.to} -----\nSubject: ${message.subject}\n\n${message.text}\n-----\n`);
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    // fail fast when the mail server is down: the applicant is told to resend. These go next
    // to the url: a second argument to createTransport is message defaults, not transport
    // options (there they were ignored, and a silent server held a sign-up for 30 s)
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 10000,
  });
  return {
    async send(message) {
      try {
        await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
      } catch (error) {
        log.warn({ err: error, mailTo: message.to }, 'mail could not be sent');
        throw error;
      }
    },
    close() {
      transport.close();
    },
  };
}
