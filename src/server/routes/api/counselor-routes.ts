import type { FastifyInstance } from 'fastify';
import { clientNetwork } from '../../lib/client-network.ts';

/**
 * The counselor's page: what it shows and its one upload. No endpoint takes an applicant or
 * an item: the link's token (the "counselor-link" guard) names both.
 */
export default async function counselorRoutes(app: FastifyInstance) {
  app.endpoint('counselorRequest', (request) => app.itemDocuments.counselor.view(request.counselorRequest!));
  app.endpoint('counselorPresign', (request) => {
    if (app.config.runJobs) void app.untrustedFiles.warm(1).catch(() => {});
    return app.itemDocuments.counselor.presign(request.counselorRequest!);
  });
  app.endpoint('counselorRegister', (request) => app.itemDocuments.counselor.register(
    request.counselorRequest!, request.body, clientNetwork(request.ip, app.config.networkPrefixV4),
  ));
  app.endpoint('counselorDocumentStatus', (request) => app.itemDocuments.counselor.status(request.counselorRequest!));
}
