import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { JobQueue } from '../jobs/job-queue.ts';
import { SWEEP_EVERY_MS, sweepJob } from '../jobs/sweep.ts';
import { privateDir } from '../lib/private-files.ts';
import { outboxDirOf } from '../mail/mailer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobQueue;
  }
}

/**
 * The durable job queue and its periodic sweep. The documents and application-pdf plugins
 * define their jobs on it; it starts once the server listens, and stops first on close.
 */
export default fp(async function jobs(app: FastifyInstance) {
  const { config } = app;
  const queue = new JobQueue(app.db, app.log, {
    lanes: { light: 2, office: 1, chromium: 2, maintenance: 1, mail: 4, webhooks: 4, reminders: 2 },
    pollMs: 500,
    lockMs: config.jobLockMs,
    retryDelayMs: config.jobRetryDelayMs,
  });
  queue.define('sweep', sweepJob({
    db: app.db, storage: app.storage, log: app.log, sessionIdleMs: app.sessions.idleMs, outboxDir: outboxDirOf(config, app.dbKind),
  }));
  queue.every('sweep', SWEEP_EVERY_MS);
  app.decorate('jobs', queue);

  if (config.runJobs) {
    app.addHook('onListen', async () => {
      await privateDir(config.dataDir);
      queue.start();
    });
  }
  // before any plugin's onClose: no job may be running when its converter stops
  app.addHook('preClose', async () => queue.stop());
}, { name: 'jobs', dependencies: ['database', 'storage', 'sessions'] });
