import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import errors from '../../../schemas/text/errors.json';
import { HttpError } from '../lib/http-error.ts';
import { createStaffLinks, type StaffLinks } from '../service-links/staff-links.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** staff links to the read-only view: made, listed, revoked, and checked on each use */
    staffLinks: StaffLinks;
  }
  interface FastifyRequest {
    /** the one applicant a valid staff link names (endpoints with "service-token" access) */
    staffLinkApplicantId: string | null;
  }
}

export default fp(async function serviceLinks(app: FastifyInstance) {
  const staffLinks = createStaffLinks(app.db, app.serviceSecret);
  app.decorate('staffLinks', staffLinks);
  app.decorateRequest('staffLinkApplicantId', null);
  // a bad, expired, revoked or foreign token is a 401, before the route reads anything
  app.guardAccess('service-token', async (request) => {
    const claims = await staffLinks.verify((request.query as { service_token?: unknown } | undefined)?.service_token);
    if (!claims) throw new HttpError(401, errors.staff_link_ended.title, { code: 'BAD_SERVICE_TOKEN' });
    request.staffLinkApplicantId = claims.applicantId;
  });
}, { name: 'service-links', dependencies: ['database', 'application-pdf'] });
