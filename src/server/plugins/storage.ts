import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import documents from '../../../schemas/documents.json';
import { HttpError } from '../lib/http-error.ts';
import { privateDir } from '../lib/private-files.ts';
import { randomToken } from '../lib/secrets.ts';
import { createLocalStorage, localStorageRoot } from '../storage/local-storage.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    storage: ObjectStorage;
    /** signs presigned POST policies of local storage; shared by every server through the database */
    uploadSecret: string;
  }
}

export default fp(async function storage(app: FastifyInstance) {
  const secret = await app.secrets.get('upload-policy-key', () => randomToken());
  app.decorate('uploadSecret', secret);
  // POST /uploads is authorised by the signed policy inside its multipart body, which the route
  // checks field by field as it reads (routes/uploads); before that, only a multipart body is
  // read at all, and no answer is cached (its writes are not JSON, so no API prefix says it)
  app.guardAccess('upload-policy', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
      throw new HttpError(400, documents.messages.upload_refused, { code: 'UPLOAD_REFUSED' });
    }
  });
  if (app.config.s3) {
    // loaded only when used: the AWS SDK is large
    const { createS3Storage } = await import('../storage/s3-storage.ts');
    app.decorate('storage', createS3Storage(app.config.s3));
    return;
  }
  await privateDir(app.config.dataDir);
  await privateDir(localStorageRoot(app.config.dataDir));
  app.decorate('storage', createLocalStorage({
    root: localStorageRoot(app.config.dataDir),
    uploadUrl: () => `${app.config.publicUrl}/uploads`,
    secret,
  }));
}, { name: 'storage', dependencies: ['database'] });
