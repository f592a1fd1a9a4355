import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { conversionJob, type ItemReceived } from '../documents/conversion-job.ts';
import { createDocumentService, type DocumentService } from '../documents/document-service.ts';
import { LibreOfficeConverter } from '../documents/libreoffice.ts';
import { UntrustedFileWorker } from '../documents/untrusted-file-worker.ts';
import { findSoffice } from '../lib/find-executable.ts';
import { privateDir } from '../lib/private-files.ts';

declare module 'fastify' {
  interface FastifyInstance {
    documents: DocumentService;
    /** where uploaded files are parsed and decoded, away from the event loop */
    untrustedFiles: UntrustedFileWorker;
    /** the Word converter, for /healthz: whether it is off here (off()) and its network */
    wordConverter: LibreOfficeConverter;
  }
}

/**
 * Uploaded documents: the service the routes call, and their conversion to PDF on the job
 * queue (images and PDFs two at a time in the untrusted file worker processes, Word files
 * one at a time in one warm LibreOffice).
 */
export default fp(async function documents(app: FastifyInstance) {
  const { config } = app;
  const workDir = join(config.dataDir, 'work');
  const converters = {
    files: new UntrustedFileWorker({ timeoutMs: config.conversionTimeoutMs }),
    office: new LibreOfficeConverter({
      sofficePath: findSoffice(config.sofficePath), workDir,
      timeoutMs: config.conversionTimeoutMs, startTimeoutMs: config.converterStartTimeoutMs,
      allowHostNetwork: config.converterAllowHostNetwork, memoryMb: config.converterMemoryMb,
      warn: (message) => app.log.warn(message),
    }),
    workDir,
  };
  // an application file item's document, once converted, marks its item received (plugins/file-items.ts registers after this one)
  const itemReceived: ItemReceived = async (tx, applicantId, itemId, by, answerKey) => {
    const change = { state: 'received' as const, by, documentKey: answerKey };
    if (!tx) await app.fileItems.mark(applicantId, itemId, change);
    // the queue is poked on the next poll: the mail and events it holds are committed with the conversion
    else await app.fileItems.markIn(tx, applicantId, itemId, change);
  };
  const jobDeps = { db: app.db, storage: app.storage, converters, timeoutMs: app.config.conversionTimeoutMs, itemReceived };
  app.jobs.define('convert_document', conversionJob(jobDeps, 'light'));
  app.jobs.define('convert_office_document', conversionJob(jobDeps, 'office'));

  app.decorate('documents', createDocumentService({
    db: app.db, storage: app.storage, jobs: app.jobs, log: app.log, quotaBytes: config.uploadQuotaBytes,
    wordConversionOff: () => converters.office.off(),
  }));
  app.decorate('untrustedFiles', converters.files);
  app.decorate('wordConverter', converters.office);

  // ready before the queue starts (on listen): conversions write there
  if (config.runJobs) {
    await privateDir(config.dataDir);
    await sweepWorkDir(workDir);
  }
  app.addHook('onClose', async () => {
    converters.office.stop();
    await converters.files.close();
  });
}, { name: 'documents', dependencies: ['database', 'storage', 'jobs'] });

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
