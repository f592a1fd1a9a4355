import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, outboxDirOf, type Mailer } from '../mail/mailer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export default fp(async function mail(app: FastifyInstance) {
  const outboxDir = outboxDirOf(app.config, app.dbKind);
  const mailer = createMailer({ smtpUrl: app.config.smtpUrl, from: app.config.mailFrom, db: app.db, log: app.log, outboxDir });
  app.decorate('mailer', mailer);
  if (!app.config.smtpUrl) {
    // said once, here, instead of printing every mail (codes and reset links stay out of the log)
    app.log.info('SMTP_URL is not set: e-mails are not sent but kept in the outbox table; read them with `npm run outbox` (or `npm run outbox -- <address>`)');
  }
  app.addHook('onClose', async () => mailer.close());
}, { name: 'mail', dependencies: ['database'] });
