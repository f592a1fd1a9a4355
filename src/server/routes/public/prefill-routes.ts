import type { FastifyInstance } from 'fastify';
import messages from '../../../../schemas/auth/messages.json';
import { findPrefill } from '../../db/repositories/prefill-repository.ts';
import { HttpError } from '../../lib/http-error.ts';
import { sha256 } from '../../lib/secrets.ts';

/**
 * GET /public/tmp?token=: answers that staff prefilled for a prospect (spec-decisions 5).
 * A missing or expired token answers 404, and the visitor gets an empty form.
 */
export default async function prefillRoutes(app: FastifyInstance) {
  app.get('/public/tmp', async (request) => {
    const token = (request.query as { token?: unknown }).token;
    const answers = typeof token === 'string' && token.length >= 20 && token.length <= 100 ? await findPrefill(app.db, sha256(token)) : undefined;
    if (!answers) throw new HttpError(404, messages.not_found, { code: 'NOT_FOUND' });
    return { answer: answers };
  });
}
