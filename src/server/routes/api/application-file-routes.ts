import type { FastifyInstance } from 'fastify';
import { clientNetwork } from '../../lib/client-network.ts';

/** The applicant's application file after submission: the checklist, requests to counselors, their own items' uploads. */
export default async function applicationFileRoutes(app: FastifyInstance) {
  const network = (ip: string) => clientNetwork(ip, app.config.networkPrefixV4);
  app.endpoint('applicationFile', async (request) => app.fileItems.view(request.applicant!.id));
  app.endpoint('askCounselor', async (request) => {
    await app.counselorRequests.ask(request.applicant!.id, request.params.item, request.body);
    return app.fileItems.view(request.applicant!.id);
  });
  app.endpoint('withdrawCounselorRequest', async (request) => {
    await app.counselorRequests.withdrawByApplicant(request.applicant!.id, request.params.item);
    return app.fileItems.view(request.applicant!.id);
  });
  app.endpoint('presignItemUpload', (request) => {
    if (app.config.runJobs) void app.untrustedFiles.warm(1).catch(() => {});
    return app.itemDocuments.applicant.presign(request.applicant!.id, request.params.item);
  });
  app.endpoint('registerItemDocument', (request) => app.itemDocuments.applicant.register(request.applicant!.id, request.params.item, request.body, {
    email: request.applicant!.email, network: network(request.ip),
  }));
  app.endpoint('itemDocumentStatus', (request) => app.itemDocuments.applicant.status(request.applicant!.id, request.params.item));
}
