import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailQueue, type MailQueue } from '../mail/mail-queue.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** every e-mail goes through here: a job with retries, its ticket for the applicant's screen */
    mailQueue: MailQueue;
  }
}

export default fp(async function mailQueue(app: FastifyInstance) {
  app.decorate('mailQueue', createMailQueue({ db: app.db, jobs: app.jobs, mailer: app.mailer, log: app.log }));
}, { name: 'mail-queue', dependencies: ['database', 'mail', 'jobs'] });
