import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { openDatabase, type DatabaseKind } from '../db/database.ts';
import type { Database } from '../db/tables.ts';
import { createSecretStore, type SecretStore } from '../lib/secret-store.ts';
import { loadSecretsKey } from '../lib/secrets-key.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbKind: DatabaseKind;
    /** Whether the database answers, without waiting behind the statements queued on PGlite's one connection. */
    dbPing(): Promise<void>;
    /** the server's signing and hashing keys, kept in the database, sealed with a key kept outside it */
    secrets: SecretStore;
  }
}

/** PGlite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set; migrations run at start. */
export default fp(async function database(app: FastifyInstance) {
  const handle = await openDatabase({ url: app.config.databaseUrl, dataDir: app.config.dataDir });
  app.decorate('db', handle.db);
  app.decorate('dbKind', handle.kind);
  app.decorate('dbPing', () => handle.ping());
  app.decorate('secrets', createSecretStore(handle.db, await loadSecretsKey(app.config)));
  app.addHook('onClose', async () => handle.close());
}, { name: 'database' });
