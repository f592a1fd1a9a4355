import type { FastifyInstance } from 'fastify';

/**
 * GET /service/tmp-pdf?service_token=: what the read-only service view shows, for the one
 * applicant the token names (its guard, in plugins/service-links.ts, checked the token).
 */
export default async function serviceRoutes(app: FastifyInstance) {
  app.endpoint('serviceView', (request) => app.profiles.serviceView(request.staffLinkApplicantId!));
}
