import type { IncomingMessage } from 'node:http';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { answerClientError, guardedServer } from './http-server.ts';
import { pacedRequests, type PacedRequests } from './lib/paced-requests.ts';
import { endpoints } from '../shared/api/contract.ts';
import { redactAddress } from './lib/redact.ts';
import clientPlugin from './plugins/client.ts';
import contractPlugin from './plugins/contract.ts';
import databasePlugin from './plugins/database.ts';
import requestOrderPlugin from './plugins/request-order.ts';
import errorHandlerPlugin from './plugins/error-handler.ts';
import mailPlugin from './plugins/mail.ts';
import mailQueuePlugin from './plugins/mail-queue.ts';
import languagePlugin from './plugins/language.ts';
import pageDrawingPlugin from './plugins/page-drawing.ts';
import webhooksPlugin from './plugins/webhooks.ts';
import securityPlugin from './plugins/security.ts';
import proxiedClientsPlugin from './plugins/proxied-clients.ts';
import accountsPlugin from './plugins/accounts.ts';
import adminChannelPlugin from './plugins/admin-channel.ts';
import answersPlugin from './plugins/answers.ts';
import applicationPdfPlugin from './plugins/application-pdf.ts';
import serviceLinksPlugin from './plugins/service-links.ts';
import documentsPlugin from './plugins/documents.ts';
import jobsPlugin from './plugins/jobs.ts';
import lookupsPlugin from './plugins/lookups.ts';
import sessionsPlugin from './plugins/sessions.ts';
import storagePlugin from './plugins/storage.ts';
import remindersPlugin from './plugins/reminders.ts';
import fileItemsPlugin from './plugins/file-items.ts';
import officeKeysPlugin from './plugins/office-keys.ts';
import reminderRoutes from './routes/api/reminder-routes.ts';
import applicationFileRoutes from './routes/api/application-file-routes.ts';
import officeRoutes from './routes/api/office-routes.ts';
import unsubscribeRoutes from './routes/public/unsubscribe-routes.ts';
import counselorRoutes from './routes/api/counselor-routes.ts';
import counselorRequestsPlugin from './plugins/counselor-requests.ts';
import documentRoutes from './routes/api/document-routes.ts';
import formExtrasRoutes from './routes/api/form-extras-routes.ts';
import pdfRoutes from './routes/api/pdf-routes.ts';
import lifecycleRoutes from './routes/api/lifecycle-routes.ts';
import profileRoutes from './routes/api/profile-routes.ts';
import sessionRoutes from './routes/api/session-routes.ts';
import openApiRoutes from './routes/openapi-routes.ts';
import pagePostRoutes from './routes/pages/page-post-routes.ts';
import healthRoutes from './routes/health.ts';
import lookupRoutes from './routes/lookup/lookup-routes.ts';
import accountRoutes from './routes/public/account-routes.ts';
import pageProblemRoutes from './routes/public/page-problem-routes.ts';
import prefillRoutes from './routes/public/prefill-routes.ts';
import serviceRoutes from './routes/service/service-routes.ts';
import uploadRoutes from './routes/uploads/upload-routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** the HTTP server's requests, handed to Fastify at most REQUESTS_PER_TURN a turn */
    requestPacing: PacedRequests;
  }
}

function trustHops(count: number) {
  return (_address: string, hop: number) => hop < count;
}

/**
 * Requests handed to Fastify in one turn of the event loop (lib/paced-requests.ts): about
 * 4 ms of routing, hooks, body parsing and contract checks on this machine kind.
 */
const REQUESTS_PER_TURN = 32;

const healthPath = endpoints.health!.path;
const isHealthCheck = (request: IncomingMessage) => request.method === 'GET' && (request.url ?? '').split('?')[0] === healthPath;

/** Builds the one server: external plugins, then ours, then the routes. */
export async function buildApp(config: Config, options: { logger?: boolean; logStream?: { write(line: string): void } } = {}): Promise<FastifyInstance> {
  const pacing = pacedRequests({ perTurn: REQUESTS_PER_TURN, immediate: isHealthCheck });
  const app = Fastify({
    logger: options.logger === false ? false : {
      level: config.logLevel,
      // a test reads the log lines (support/test-server.ts); else standard output
      ...(options.logStream ? { stream: options.logStream } : {}),
      // tokens in addresses are never logged (ASVS 14.2.1 deviation kept small), nor in an error that quotes an address
      serializers: {
        req: (request) => ({ method: request.method, url: redactAddress(request.url) }),
        err: (error: Error & { code?: unknown; statusCode?: unknown }) => ({
          type: error.name, message: redactAddress(String(error.message)), stack: redactAddress(String(error.stack)),
          ...(error.code !== undefined ? { code: error.code } : {}), ...(error.statusCode !== undefined ? { statusCode: error.statusCode } : {}),
        }),
      },
    },
    // a hop count trusts that many proxies in front (Fastify's own number option trusts none);
    // an address list trusts only those peers
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 256 * 1024,
    // opening PGlite and migrating can take longer than Fastify's 10 s on a busy machine
    pluginTimeout: 120_000,
    serverFactory: guardedServer(config, pacing),
    clientErrorHandler: answerClientError,
  });
  app.decorate('config', config);
  app.decorate('requestPacing', pacing);
  try {
    await registerEverything(app, config);
  } catch (error) {
    // what started is stopped (the embedded database and its lock above all), so the caller
    // may try again in this process
    await app.close().catch(() => {});
    throw error;
  }
  return app;
}

async function registerEverything(app: FastifyInstance, config: Config): Promise<void> {

  // only the embedded database orders its queue by arrival; on Node 20 the request context
  // turns on promise hooks for the whole process, a cost PostgreSQL's pool would not repay
  if (!config.databaseUrl) await app.register(requestOrderPlugin);
  await app.register(cookie);
  await app.register(languagePlugin);
  await app.register(errorHandlerPlugin);
  await app.register(contractPlugin);
  await app.register(securityPlugin);
  await app.register(proxiedClientsPlugin);
  await app.register(databasePlugin);
  await app.register(mailPlugin);
  await app.register(sessionsPlugin);
  await app.register(storagePlugin);
  await app.register(jobsPlugin);
  await app.register(mailQueuePlugin);
  await app.register(webhooksPlugin);
  await app.register(remindersPlugin);
  // the services the routes call
  await app.register(accountsPlugin);
  await app.register(documentsPlugin);
  await app.register(applicationPdfPlugin);
  await app.register(serviceLinksPlugin);
  await app.register(fileItemsPlugin);
  await app.register(counselorRequestsPlugin);
  await app.register(officeKeysPlugin);
  await app.register(answersPlugin);
  await app.register(lookupsPlugin);
  await app.register(adminChannelPlugin);

  await app.register(healthRoutes);
  await app.register(openApiRoutes);
  await app.register(accountRoutes);
  await app.register(sessionRoutes);
  await app.register(profileRoutes);
  await app.register(formExtrasRoutes);
  await app.register(lifecycleRoutes);
  await app.register(prefillRoutes);
  await app.register(reminderRoutes);
  await app.register(applicationFileRoutes);
  await app.register(counselorRoutes);
  await app.register(officeRoutes);
  await app.register(unsubscribeRoutes);
  await app.register(documentRoutes);
  await app.register(pdfRoutes);
  await app.register(serviceRoutes);
  // local storage's stand-in for S3's presigned POST; with S3 the browser posts to the bucket
  if (!config.s3) await app.register(uploadRoutes);
  await app.register(lookupRoutes);
  await app.register(pageProblemRoutes);
  await app.register(pageDrawingPlugin);
  await app.register(pagePostRoutes);
  await app.register(clientPlugin);
}
