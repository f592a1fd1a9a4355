import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createWebhooks, type Webhooks } from '../webhooks/webhook-delivery.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** signed events to the office's systems (WEBHOOK_URL) */
    webhooks: Webhooks;
  }
}

export default fp(async function webhooks(app: FastifyInstance) {
  app.decorate('webhooks', createWebhooks({ db: app.db, jobs: app.jobs, config: app.config.webhook, log: app.log }));
}, { name: 'webhooks', dependencies: ['database', 'jobs'] });
