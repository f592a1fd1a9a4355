import type { FastifyInstance } from 'fastify';
import errors from '../../../../schemas/text/errors.json';
import { createFormExtrasService } from '../../answers/form-extras-service.ts';
import { createProfileService } from '../../answers/profile-service.ts';
import { HttpError } from '../../lib/http-error.ts';
import { verifyServiceToken } from '../../pdf/service-token.ts';

/**
 * GET /service/tmp-pdf?service_token=: what the read-only service view shows, for the one
 * applicant the token names, while it is valid. A bad, expired or foreign token is a 401.
 */
export default async function serviceRoutes(app: FastifyInstance) {
  const profile = createProfileService(app.db);
  const extras = createFormExtrasService(app.db);
  app.endpoint('serviceView', async (request) => {
    const claims = verifyServiceToken(app.serviceSecret, (request.query as { service_token?: unknown }).service_token);
    if (!claims) throw new HttpError(401, errors.session_invalid, { code: 'BAD_SERVICE_TOKEN' });
    const id = claims.applicantId;
    const [answer, addAnother, documentAnswer, tabs] = await Promise.all([profile.answers(id), extras.addAnother(id), app.documents.list(id), extras.tabs(id)]);
    return { answer, add_another: addAnother, document_answer: documentAnswer, tabs };
  });
}
