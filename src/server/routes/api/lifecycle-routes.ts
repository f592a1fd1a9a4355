import type { FastifyInstance } from 'fastify';
import { createLifecycleService } from '../../answers/lifecycle-service.ts';

/** Saving answers, the status, the last page, validations and submit (spec section 7). */
export default async function lifecycleRoutes(app: FastifyInstance) {
  const lifecycle = createLifecycleService(app.db);
  app.addHook('onRequest', app.requireApplicant);

  app.put('/api/answer', (request) => lifecycle.saveAnswers(request.applicant!.id, request.body));
  app.post('/api/web-status', (request) => lifecycle.postStatus(request.applicant!.id, request.body));
  app.put('/api/last-page', (request) => lifecycle.saveLastPage(request.applicant!.id, request.body));
  app.post('/api/validations', (request) => lifecycle.saveValidations(request.applicant!.id, request.body));
  app.post('/api/submit', (request) => lifecycle.submit(request.applicant!.id));
}
