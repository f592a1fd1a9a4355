import type { FastifyInstance } from 'fastify';
import { clientNetwork } from '../../lib/client-network.ts';

/** Presigned uploads, conversions and documents of the logged-in applicant (spec section 7). */
export default async function documentRoutes(app: FastifyInstance) {
  app.endpoint('presignUpload', (request) => {
    // a file is on its way: the worker that will check it starts while it uploads (about a second cold)
    if (app.config.runJobs) void app.untrustedFiles.warm(1).catch(() => {});
    return app.documents.presign(request.applicant!.id, request.body);
  });
  app.endpoint('registerDocument', (request) => app.documents.register(request.applicant!.id, request.params.key, request.body, {
    email: request.applicant!.email, network: clientNetwork(request.ip, app.config.networkPrefixV4),
  }));
  app.endpoint('documentStatus', (request) => app.documents.status(request.applicant!.id, request.params.key));
  app.endpoint('removeConvertedDocument', (request) => app.documents.remove(request.applicant!.id, request.params.key));
  app.endpoint('documents', (request) => app.documents.list(request.applicant!.id));
  app.endpoint('removeDocument', (request) => app.documents.remove(request.applicant!.id, request.params.key));
}
