import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createCounselorRequests, type CounselorLink, type CounselorRequests } from '../file-items/counselor-requests.ts';
import { createItemDocuments, type ItemDocuments } from '../file-items/item-documents.ts';
import { randomToken } from '../lib/secrets.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** requests to school counselors for application file items, and their signed links */
    counselorRequests: CounselorRequests;
    /** application file items' documents: who may send one, through the documents' pipeline */
    itemDocuments: ItemDocuments;
  }
  interface FastifyRequest {
    /** the request a valid counselor link names (endpoints with "counselor-link" access) */
    counselorRequest: CounselorLink | null;
  }
}

/** The header a counselor's page sends its link's token in: never the address, which Referer and logs carry. */
export const COUNSELOR_LINK_HEADER = 'x-counselor-link';

export default fp(async function counselorRequests(app: FastifyInstance) {
  const secret = await app.secrets.get('counselor-link-key', () => randomToken());
  const service = createCounselorRequests({ db: app.db, jobs: app.jobs, fileItems: app.fileItems, secret, publicUrl: () => app.config.publicUrl });
  app.decorate('counselorRequests', service);
  app.decorate('itemDocuments', createItemDocuments({ db: app.db, documents: app.documents, fileItems: app.fileItems, counselorRequests: service }));
  app.decorateRequest('counselorRequest', null);
  // the token is the authority, and it alone names the applicant and the item: a forged,
  // altered, withdrawn or expired one is refused before the route reads anything
  app.guardAccess('counselor-link', async (request) => {
    const header = request.headers[COUNSELOR_LINK_HEADER];
    request.counselorRequest = await service.linkOf(typeof header === 'string' ? header : undefined);
  });
}, { name: 'counselor-requests', dependencies: ['database', 'jobs', 'mail-queue', 'documents', 'file-items'] });
