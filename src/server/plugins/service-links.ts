import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createStaffLinks, type StaffLinks } from '../service-links/staff-links.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** staff links to the read-only view: made, listed, revoked, and checked on each use */
    staffLinks: StaffLinks;
  }
}

export default fp(async function serviceLinks(app: FastifyInstance) {
  app.decorate('staffLinks', createStaffLinks(app.db, app.serviceSecret));
}, { name: 'service-links', dependencies: ['database', 'application-pdf'] });
