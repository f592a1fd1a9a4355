import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { findChromium } from '../lib/find-executable.ts';
import { randomToken } from '../lib/secrets.ts';
import { createApplicationPdfService, type ApplicationPdfService } from '../pdf/application-pdf.ts';
import { ChromiumPrinter } from '../pdf/chromium-printer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    applicationPdf: ApplicationPdfService;
    /** signs the service links that open the read-only view (and that the PDF printer uses) */
    serviceSecret: string;
  }
}

/** The PDF copy of the application: the service view printed by a warm Chromium, with the documents merged in. */
export default fp(async function applicationPdf(app: FastifyInstance) {
  const { config } = app;
  const printer = new ChromiumPrinter(findChromium(config.chromiumPath));
  const serviceSecret = await app.secrets.get('service-token-key', () => randomToken());
  const service = createApplicationPdfService({
    db: app.db, storage: app.storage, jobs: app.jobs, printer, files: app.untrustedFiles, serviceSecret,
    internalUrl: () => {
      const address = app.server.address();
      return typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : config.publicUrl;
    },
  });
  app.jobs.define('application_pdf', service.job);
  app.decorate('applicationPdf', service);
  app.decorate('serviceSecret', serviceSecret);
  app.addHook('onClose', async () => printer.close());
}, { name: 'application-pdf', dependencies: ['database', 'storage', 'jobs', 'documents'] });
