import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, type Mailer } from '../mail/mailer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export default fp(async function mail(app: FastifyInstance) {
  const mailer = createMailer({ smtpUrl: app.config.smtpUrl, from: app.config.mailFrom, db: app.db, log: app.log });
  app.decorate('mailer', mailer);
  app.addHook('onClose', async () => mailer.close());
}, { name: 'mail', dependencies: ['database'] });
