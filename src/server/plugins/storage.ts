import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
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
