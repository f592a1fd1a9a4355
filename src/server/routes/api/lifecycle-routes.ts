import type { FastifyInstance } from 'fastify';

/** Saving answers, the status, the last page, validations and submit (spec section 7). */
export default async function lifecycleRoutes(app: FastifyInstance) {
  const { lifecycle } = app;
  app.endpoint('saveAnswers', (request) => lifecycle.saveAnswers(request.applicant!.id, request.body));
  app.endpoint('postStatus', (request) => lifecycle.postStatus(request.applicant!.id, request.body));
  app.endpoint('saveLastPage', (request) => lifecycle.saveLastPage(request.applicant!.id, request.body));
  app.endpoint('saveValidations', (request) => lifecycle.saveValidations(request.applicant!.id, request.body));
  app.endpoint('submit', (request) => lifecycle.submit(request.applicant!.id));
}
