import type { FastifyInstance } from 'fastify';

/** GET /api/application-file: the applicant's checklist after submission. */
export default async function applicationFileRoutes(app: FastifyInstance) {
  app.endpoint('applicationFile', async (request) => app.fileItems.view(request.applicant!.id));
}
