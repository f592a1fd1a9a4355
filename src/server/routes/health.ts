import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { findExecutable } from '../lib/find-executable.ts';

/** GET /healthz: the database and the optional converters. 503 when the database does not answer. */
export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async (_request, reply) => {
    let database: { kind: string; ok: boolean; error?: string };
    try {
      await sql`select 1`.execute(app.db);
      database = { kind: app.dbKind, ok: true };
    } catch (error) {
      database = { kind: app.dbKind, ok: false, error: (error as Error).message };
    }
    const chromium = findExecutable(app.config.chromiumPath, ['chromium', 'chromium-browser', 'google-chrome']);
    const libreoffice = findExecutable(app.config.sofficePath, ['soffice', 'libreoffice']);
    reply.header('cache-control', 'no-store');
    return reply.status(database.ok ? 200 : 503).send({
      status: database.ok ? 'ok' : 'unavailable',
      database,
      converters: {
        chromium: chromium ? { available: true, path: chromium } : { available: false, install: 'apt-get install chromium' },
        libreoffice: libreoffice
          ? { available: true, path: libreoffice }
          : { available: false, install: 'apt-get install libreoffice-writer-nogui' },
      },
      mail: app.config.smtpUrl ? 'smtp' : 'outbox',
    });
  });
}
