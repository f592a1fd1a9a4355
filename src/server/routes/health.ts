import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findChromium, findSoffice } from '../lib/find-executable.ts';
import { safeEqual } from '../lib/secrets.ts';

/** The client's address (behind TRUST_PROXY, the one the proxy saw) is this machine. */
function fromLoopback(request: FastifyRequest): boolean {
  const address = request.ip.replace(/^::ffff:/, '');
  return address === '::1' || address.startsWith('127.');
}

/** How long a look for the converters on PATH holds: a probe every second need not search PATH each time. */
const CONVERTERS_FOUND_FOR_MS = 10_000;

/**
 * GET /healthz: 200 `{status:'ok'}`, or 503 when the database does not answer. Which
 * database, which converters and where they are, whether Word conversion is off (and why),
 * the Node.js version, only to this machine or to a request with the HEALTH_TOKEN (X-Health-Token): the public
 * learns nothing about the set-up.
 */
export default async function healthRoutes(app: FastifyInstance) {
  const { healthToken } = app.config;
  let found: { at: number; chromium: string | undefined; libreoffice: string | undefined } | undefined;
  // a converter installed while the server runs shows within 10 s
  const converters = () => {
    if (!found || Date.now() - found.at > CONVERTERS_FOUND_FOR_MS) {
      found = { at: Date.now(), chromium: findChromium(app.config.chromiumPath), libreoffice: findSoffice(app.config.sofficePath) };
    }
    return found;
  };
  const mayReadDetails = (request: FastifyRequest) => {
    const token = request.headers['x-health-token'];
    return fromLoopback(request) || (healthToken !== undefined && typeof token === 'string' && safeEqual(token, healthToken));
  };

  /** Installed LibreOffice: whether it converts here (off where it would have the server's network) and in which network. */
  const wordConverter = (path: string) => {
    const off = app.wordConverter.off();
    return off ? { available: false, path, off } : { available: true, path, network: app.wordConverter.network };
  };

  app.endpoint('health', async (request, reply) => {
    let database: { kind: string; ok: boolean; error?: string };
    try {
      await app.dbPing();
      database = { kind: app.dbKind, ok: true };
    } catch (error) {
      database = { kind: app.dbKind, ok: false, error: (error as Error).message };
    }
    reply.header('cache-control', 'no-store');
    const status = database.ok ? 'ok' : 'unavailable';
    reply.status(database.ok ? 200 : 503);
    if (!mayReadDetails(request)) return reply.send({ status });
    const { chromium, libreoffice } = converters();
    return reply.send({
      status,
      database,
      converters: {
        chromium: chromium ? { available: true, path: chromium } : { available: false, install: 'apt-get install chromium-headless-shell' },
        libreoffice: libreoffice ? wordConverter(libreoffice) : { available: false, install: 'apt-get install libreoffice-writer-nogui' },
      },
      mail: app.config.smtpUrl ? 'smtp' : 'outbox',
      node: process.version,
    });
  });
}
