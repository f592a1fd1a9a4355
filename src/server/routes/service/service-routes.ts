import type { FastifyInstance } from 'fastify';
import errors from '../../../../schemas/text/errors.json';
import { HttpError } from '../../lib/http-error.ts';

/**
 * GET /service/tmp-pdf?service_token=: what the read-only service view shows, for the one
 * applicant the token names, while it is valid. A bad, expired, revoked or foreign token is a 401.
 */
export default async function serviceRoutes(app: FastifyInstance) {
  app.endpoint('serviceView', async (request) => {
    const claims = await app.staffLinks.verify(request.query.service_token);
    if (!claims) throw new HttpError(401, errors.staff_link_ended.title, { code: 'BAD_SERVICE_TOKEN' });
    return app.profiles.serviceView(claims.applicantId);
  });
}
