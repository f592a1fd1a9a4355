import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createFileItems, type FileItems } from '../file-items/file-item-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** the application file's items and its completion (schemas/file-items.json) */
    fileItems: FileItems;
  }
}

export default fp(async function fileItems(app: FastifyInstance) {
  app.decorate('fileItems', createFileItems({
    db: app.db, jobs: app.jobs, webhooksEnabled: app.webhooks.enabled, publicUrl: () => app.config.publicUrl, log: app.log,
  }));
}, { name: 'file-items', dependencies: ['database', 'jobs', 'webhooks', 'mail-queue'] });
