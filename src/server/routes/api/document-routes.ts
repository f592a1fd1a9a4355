import type { FastifyInstance } from 'fastify';

/** Presigned uploads, conversions and documents of the logged-in applicant (spec section 7). */
export default async function documentRoutes(app: FastifyInstance) {
  app.addHook('onRequest', app.requireApplicant);
  const key = (request: { params: unknown }) => String((request.params as { key: string }).key);

  app.post('/api/presigned-url', (request) => {
    // a file is on its way: the worker that will check it starts while it uploads (about a second cold)
    if (app.config.runJobs) void app.untrustedFiles.warm(1).catch(() => {});
    return app.documents.presign(request.applicant!.id, request.body);
  });
  app.post('/api/pdf/document-answer/:key', (request) => app.documents.register(request.applicant!.id, key(request), request.body));
  app.get('/api/pdf/document-answer/:key', (request) => app.documents.status(request.applicant!.id, key(request)));
  app.delete('/api/pdf/document-answer/:key', (request) => app.documents.remove(request.applicant!.id, key(request)));
  app.get('/api/document-answer', (request) => app.documents.list(request.applicant!.id));
  app.delete('/api/document-answer/:key', (request) => app.documents.remove(request.applicant!.id, key(request)));
}
