import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { adminSocketPathFits, openAdminChannel, type AdminChannel } from '../admin/admin-channel.ts';
import { BadArguments, isDataOperation, runDataOperation, type DataContext } from '../admin/data-operations.ts';

/**
 * On the embedded database the server owns DATA_DIR (lib/data-dir-lock.ts), so the office's
 * commands run their operations here, on the server's own database connection, instead of
 * opening the database a second time. Opened once the server is ready, closed before the
 * database is. PostgreSQL needs none: the commands connect to it themselves.
 */
export default fp(async function adminChannel(app: FastifyInstance) {
  const { dataDir } = app.config;
  if (app.dbKind !== 'pglite' || dataDir === 'memory://') return;
  if (!adminSocketPathFits(dataDir)) {
    app.log.warn(`DATA_DIR's path is too long for the admin channel's socket: the office's commands cannot run while this server does (give a shorter DATA_DIR)`);
    return;
  }
  const context: DataContext = {
    db: app.db, config: app.config, documentStorage: async () => app.storage, jobsQueued: () => app.jobs.poke(),
  };
  let channel: AdminChannel | undefined;
  app.addHook('onReady', async () => {
    channel = await openAdminChannel({
      dataDir,
      log: app.log,
      run: async (name, args) => {
        if (!isDataOperation(name)) return { status: 404, error: `no operation ${name}` };
        try {
          return { result: await runDataOperation(context, name, args) };
        } catch (error) {
          if (error instanceof BadArguments) return { status: 400, error: error.message };
          throw error;
        }
      },
    });
  });
  // before the database closes: an operation under way finishes first
  app.addHook('preClose', async () => channel?.close());
}, { name: 'admin-channel', dependencies: ['database', 'storage', 'jobs'] });
