import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { getOrCreateSecret } from '../db/repositories/secret-repository.ts';
import { conversionJob } from '../documents/conversion-job.ts';
import { createDocumentService, type DocumentService } from '../documents/document-service.ts';
import { LibreOfficeConverter } from '../documents/libreoffice.ts';
import { UntrustedFileWorker } from '../documents/untrusted-file-worker.ts';
import { JobQueue } from '../jobs/job-queue.ts';
import { SWEEP_EVERY_MS, sweepJob } from '../jobs/sweep.ts';
import { findExecutable } from '../lib/find-executable.ts';
import { privateDir } from '../lib/private-files.ts';
import { randomToken } from '../lib/secrets.ts';
import { outboxDirOf } from '../mail/mailer.ts';
import { createApplicationPdfService, type ApplicationPdfService } from '../pdf/application-pdf.ts';
import { ChromiumPrinter } from '../pdf/chromium-printer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobQueue;
    documents: DocumentService;
    applicationPdf: ApplicationPdfService;
    serviceSecret: string;
    /** where uploaded files are parsed and decoded, away from the event loop */
    untrustedFiles: UntrustedFileWorker;
  }
}

/**
 * The durable job queue and what runs on it: document conversion (images and PDFs two at
 * a time, one LibreOffice; every upload parsed in the untrusted file worker processes),
 * the application PDF (a warm Chromium) and the periodic sweep.
 */
export default fp(async function jobs(app: FastifyInstance) {
  const { config } = app;
  const queue = new JobQueue(app.db, app.log, {
    lanes: { light: 2, office: 1, chromium: 2, maintenance: 1 },
    pollMs: 500,
    lockMs: config.jobLockMs,
    retryDelayMs: config.jobRetryDelayMs,
  });
  const workDir = join(config.dataDir, 'work');
  const converters = {
    files: new UntrustedFileWorker({ timeoutMs: config.conversionTimeoutMs }),
    office: new LibreOfficeConverter({
      sofficePath: findExecutable(config.sofficePath, ['soffice', 'libreoffice']), workDir,
      timeoutMs: config.conversionTimeoutMs, startTimeoutMs: config.converterStartTimeoutMs,
      warn: (message) => app.log.warn(message),
    }),
    workDir,
  };
  const printer = new ChromiumPrinter(findExecutable(config.chromiumPath, ['chromium', 'chromium-browser', 'google-chrome']));
  const serviceSecret = await getOrCreateSecret(app.db, 'service-token-key', () => randomToken());

  queue.define('convert_document', conversionJob({ db: app.db, storage: app.storage, converters }, 'light'));
  queue.define('convert_office_document', conversionJob({ db: app.db, storage: app.storage, converters }, 'office'));
  const applicationPdf = createApplicationPdfService({
    db: app.db, storage: app.storage, jobs: queue, printer, files: converters.files, serviceSecret,
    internalUrl: () => {
      const address = app.server.address();
      return typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : config.publicUrl;
    },
  });
  queue.define('application_pdf', applicationPdf.job);
  queue.define('sweep', sweepJob({
    db: app.db, storage: app.storage, log: app.log, sessionIdleMs: app.sessions.idleMs, outboxDir: outboxDirOf(config, app.dbKind),
  }));
  queue.every('sweep', SWEEP_EVERY_MS);

  app.decorate('jobs', queue);
  app.decorate('serviceSecret', serviceSecret);
  app.decorate('documents', createDocumentService({ db: app.db, storage: app.storage, jobs: queue, log: app.log, quotaBytes: config.uploadQuotaBytes }));
  app.decorate('applicationPdf', applicationPdf);
  app.decorate('untrustedFiles', converters.files);

  if (config.runJobs) {
    app.addHook('onListen', async () => {
      await privateDir(config.dataDir);
      await sweepWorkDir(workDir);
      queue.start();
    });
  }
  app.addHook('onClose', async () => {
    await queue.stop();
    converters.office.stop();
    await converters.files.close();
    await printer.close();
  });
}, { name: 'jobs', dependencies: ['database', 'storage', 'sessions'] });

/** Temporary files a killed conversion left behind (an hour is far past any conversion's timeout). */
async function sweepWorkDir(workDir: string): Promise<void> {
  await privateDir(workDir); // documents being converted lie there
  const cutoff = Date.now() - 60 * 60_000;
  for (const name of await readdir(workDir)) {
    const path = join(workDir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && info.mtimeMs < cutoff) await rm(path, { recursive: true, force: true }).catch(() => {});
  }
}
