import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import apiMessages from '../../../schemas/text/api-messages.json';
import { touchOfficeKey } from '../db/repositories/office-key-repository.ts';
import { createOfficeFile, type OfficeFile } from '../file-items/office-file.ts';
import { bearerOf, verifyOfficeKey } from '../file-items/office-keys.ts';
import { clientNetwork } from '../lib/client-network.ts';
import { HttpError } from '../lib/http-error.ts';
import { tooManyRequests } from '../lib/too-many-requests.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** the application file as the office reads and changes it (office API, npm run file-items) */
    officeFile: OfficeFile;
  }
  interface FastifyRequest {
    /** the live office key the request presented (endpoints with "office-key" access) */
    officeKey: { id: string; name: string } | null;
  }
}

/** Wrong keys one client network may present a minute; further ones are answered 429. */
export const OFFICE_KEY_FAILURES_PER_MINUTE = 30;
const MINUTE = 60_000;

/**
 * The office integration's credential: `Authorization: Bearer <key>` and nothing else (a
 * cookie, the address or a form field never counts), looked up by its hash on every request,
 * so a revoked key is refused at once on every server. Its use is recorded at most once a
 * minute. Each key has its own limit a minute (OFFICE_RATE_LIMIT_PER_KEY); wrong keys are
 * counted per client network and answered 429 past a limit.
 */
/**
 * Counts per name in windows of a minute, on this server: `hit` says how long until the window
 * ends once a name passes `max` in it. Kept to 10,000 names (spent windows go first).
 */
function minuteCounter() {
  const windows = new Map<string, { count: number; until: number }>();
  return (name: string, max: number): number | undefined => {
    const now = Date.now();
    if (windows.size > 10_000) for (const [at, entry] of windows) if (entry.until <= now) windows.delete(at);
    if (windows.size > 10_000) windows.clear();
    const current = windows.get(name);
    const entry = current && current.until > now ? current : { count: 0, until: now + MINUTE };
    entry.count++;
    windows.set(name, entry);
    return entry.count > max ? entry.until - now : undefined;
  };
}

export default fp(async function officeKeys(app: FastifyInstance) {
  app.decorate('officeFile', createOfficeFile(app.db, app.fileItems));
  app.decorateRequest('officeKey', null);

  const wrongKeys = minuteCounter();
  const keyUses = minuteCounter();
  const touched = new Map<string, number>();

  // every endpoint with "office-key" access has this guard, and so its limits, wherever it is registered
  app.guardAccess('office-key', async (request, reply) => {
    const presented = bearerOf(request.headers.authorization);
    const key = presented ? await verifyOfficeKey(app.db, presented) : undefined;
    if (!key) {
      // a live key always passes, so a flood of wrong ones locks no office out; past the limit they are
      // answered 429 (a key has 256 random bits: guessing is hopeless anyway; this keeps a flood slow and loud)
      const wait = presented ? wrongKeys(clientNetwork(request.ip, app.config.networkPrefixV4), OFFICE_KEY_FAILURES_PER_MINUTE) : undefined;
      if (wait !== undefined) throw tooManyRequests(wait);
      reply.header('www-authenticate', 'Bearer realm="office"');
      throw new HttpError(401, apiMessages.office_key_invalid, { code: 'OFFICE_KEY_INVALID' });
    }
    const wait = keyUses(key.id, app.config.officeRateLimitPerKey);
    if (wait !== undefined) throw tooManyRequests(wait);
    request.officeKey = { id: key.id, name: key.name };
    const now = Date.now();
    if ((touched.get(key.id) ?? 0) + MINUTE <= now) {
      touched.set(key.id, now);
      await touchOfficeKey(app.db, key.id);
    }
  });
}, { name: 'office-keys', dependencies: ['database', 'file-items'] });
