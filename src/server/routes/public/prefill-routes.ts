import type { FastifyInstance } from 'fastify';
import messages from '../../../../schemas/auth/messages.json';
import { prefillAnswers } from '../../accounts/prefill-service.ts';
import { HttpError } from '../../lib/http-error.ts';

/**
 * GET /public/tmp?token=: answers that staff prefilled for a prospect (spec-decisions 5).
 * A missing or expired token answers 404, and the visitor gets an empty form.
 */
export default async function prefillRoutes(app: FastifyInstance) {
  app.endpoint('prefill', async (request) => {
    const token = (request.query as { token?: unknown }).token;
    const answers = await prefillAnswers(app.db, token);
    if (!answers) throw new HttpError(404, messages.not_found, { code: 'NOT_FOUND' });
    return { answer: answers };
  });
}
