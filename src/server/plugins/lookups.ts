import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createLookupService, type LookupService } from '../lookups/lookup-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** school and ZIP look-ups */
    lookups: LookupService;
  }
}

export default fp(async function lookups(app: FastifyInstance) {
  app.decorate('lookups', createLookupService(app.db));
}, { name: 'lookups', dependencies: ['database'] });
