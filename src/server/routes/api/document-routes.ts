import type { FastifyInstance } from 'fastify';
import type { DocumentStatusParams as KeyParams, PresignUploadBody, RegisterDocumentBody } from '../../../shared/generated/api-types.ts';

/** Presigned uploads, conversions and documents of the logged-in applicant (spec section 7). */
export default async function documentRoutes(app: FastifyInstance) {
  app.addHook('onRequest', app.requireApplicant);
  const key = (request: { params: unknown }) => (request.params as KeyParams).key;

  app.endpoint('presignUpload', (request) => {
    // a file is on its way: the worker that will check it starts while it uploads (about a second cold)
    if (app.config.runJobs) void app.untrustedFiles.warm(1).catch(() => {});
    return app.documents.presign(request.applicant!.id, request.body as PresignUploadBody);
  });
  app.endpoint('registerDocument', (request) => app.documents.register(request.applicant!.id, key(request), request.body as RegisterDocumentBody));
  app.endpoint('documentStatus', (request) => app.documents.status(request.applicant!.id, key(request)));
  app.endpoint('removeConvertedDocument', (request) => app.documents.remove(request.applicant!.id, key(request)));
  app.endpoint('documents', (request) => app.documents.list(request.applicant!.id));
  app.endpoint('removeDocument', (request) => app.documents.remove(request.applicant!.id, key(request)));
}
