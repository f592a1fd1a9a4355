import type { FastifyInstance } from 'fastify';

/** GET /public/tmp?token=: answers that staff prefilled for a prospect (spec-decisions 5). */
export default async function prefillRoutes(app: FastifyInstance) {
  app.endpoint('prefill', (request) => app.prefill.answers(request.query.token));
}
