import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app.ts';
import { loadConfig, type Config } from '../src/server/config.ts';
import { seedEmbeddedDatabase } from './pglite-template.ts';
import { TEST_SECRETS_KEY } from './test-secrets-key.ts';
import { countUnit } from './test-units.ts';

export interface TestServer {
  app: FastifyInstance;
  url: string;
  config: Config;
  /** Stops the server (the data stays); requests fail until start(). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real server, in the test process, on a free port. Without a databaseUrl it uses
 * embedded PGlite in a fresh temporary DATA_DIR, exactly as `npm start` does.
 */
export async function startTestServer(options: {
  databaseUrl?: string; env?: Record<string, string>; listen?: boolean;
  /** each line the server logs (JSON, LOG_LEVEL warn and above unless env says otherwise); no log without it */
  log?: (line: string) => void;
} = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'admission-test-'));
  countUnit('in-process server');
  if (!options.databaseUrl) seedEmbeddedDatabase(dataDir);
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_IP: '1000',
    // every test client connects from this machine's one address
    MAX_CONNECTIONS_PER_ADDRESS: '1000',
    // every test applicant signs up from this machine: a network's mail limit is its own test's
    MAIL_PER_NETWORK_PER_HOUR: '1000',
    // The browser draws the form pages, as before the server drew them: a test acts on a page
    // once it is shown, and a drawn page shown before its scripts would take no click. The
    // server's drawing and its take-over have their own tests (html-floor, page-drawing),
    // which turn it on with RENDER_WORKERS, and a ceiling far above what a busy machine needs.
    RENDER_WORKERS: '0',
    RENDER_TIMEOUT_MS: '60000',
    // servers on one PostgreSQL database share the key that seals its secrets, as in production
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl, SECRETS_KEY: TEST_SECRETS_KEY } : {}),
    ...options.env,
  });
  const logging = options.log ? { logStream: { write: options.log } } : { logger: false };
  const app = await buildApp(config, logging);
  let url = 'http://127.0.0.1';
  if (options.listen !== false) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    url = `http://localhost:${port}`;
    // links in mails must point at this server
    config.publicUrl = options.env?.PUBLIC_URL ?? url;
  }
  let running = true;
  const server: TestServer = {
    app,
    url,
    config,
    async stop() {
      running = false;
      await server.app.close();
    },
    async start() {
      server.app = await buildApp(config, logging);
      await server.app.listen({ port: Number(new URL(url).port), host: '127.0.0.1' });
      running = true;
    },
    async close() {
      if (running) await server.app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/** The real server on a fresh database of `target` (PGlite or PostgreSQL); close() drops it too. */
export async function startTestServerOn(
  target: { create(): Promise<{ url: string | undefined; drop(): Promise<void> }> },
  options: Omit<Parameters<typeof startTestServer>[0], 'databaseUrl'> = {},
): Promise<TestServer> {
  const database = await target.create();
  const server = await startTestServer({ ...options, databaseUrl: database.url });
  const close = server.close.bind(server);
  server.close = async () => {
    await close();
    await database.drop();
  };
  return server;
}
