import type { FastifyInstance } from 'fastify';
import { createFormExtrasService } from '../../answers/form-extras-service.ts';

/** Add-another counts and tab choices (spec section 7). */
export default async function formExtrasRoutes(app: FastifyInstance) {
  const extras = createFormExtrasService(app.db);
  app.addHook('onRequest', app.requireApplicant);

  app.get('/api/add-another', (request) => extras.addAnother(request.applicant!.id));
  app.put('/api/add-another', (request) => extras.saveAddAnother(request.applicant!.id, request.body));
  app.get('/api/tabs', (request) => extras.tabs(request.applicant!.id));
  app.put('/api/tabs', (request) => extras.saveTab(request.applicant!.id, request.body));
}
