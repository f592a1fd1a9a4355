import type { FastifyInstance } from 'fastify';

/** Add-another counts and tab choices (spec section 7). */
export default async function formExtrasRoutes(app: FastifyInstance) {
  const extras = app.formExtras;
  app.endpoint('addAnother', (request) => extras.addAnother(request.applicant!.id));
  app.endpoint('saveAddAnother', (request) => extras.saveAddAnother(request.applicant!.id, request.body));
  app.endpoint('removeAnother', (request) => extras.removeAnother(request.applicant!.id, request.body));
  app.endpoint('tabs', (request) => extras.tabs(request.applicant!.id));
  app.endpoint('saveTab', (request) => extras.saveTab(request.applicant!.id, request.body));
}
