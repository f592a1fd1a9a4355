import type { FastifyInstance } from 'fastify';
import errors from '../../../../schemas/text/errors.json';
import { addAnotherOf, tabsOf } from '../../db/repositories/form-extras-repository.ts';
import { answersOf } from '../../db/repositories/profile-repository.ts';
import { HttpError } from '../../lib/http-error.ts';
import { verifyServiceToken } from '../../pdf/service-token.ts';

/**
 * GET /service/tmp-pdf?service_token=: what the read-only service view shows, for the one
 * applicant the token names, while it is valid. A bad, expired or foreign token is a 401.
 */
export default async function serviceRoutes(app: FastifyInstance) {
  app.get('/service/tmp-pdf', async (request) => {
    const claims = verifyServiceToken(app.serviceSecret, (request.query as { service_token?: unknown }).service_token);
    if (!claims) throw new HttpError(401, errors.session_invalid, { code: 'BAD_SERVICE_TOKEN' });
    const id = claims.applicantId;
    const [answer, addAnother, documentAnswer, tabs] = await Promise.all([answersOf(app.db, id), addAnotherOf(app.db, id), app.documents.list(id), tabsOf(app.db, id)]);
    return { answer, add_another: addAnother, document_answer: documentAnswer, tabs };
  });
}
