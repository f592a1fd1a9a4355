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

/** Wrong keys one client network may present a minute before it is refused without a look-up. */
export const OFFICE_KEY_FAILURES_PER_MINUTE = 30;
const MINUTE = 60_000;

/**
 * The office integration's credential: `Authorization: Bearer <key>` and nothing else (a
 * cookie, the address or a form field never counts), looked up by its hash on every request,
 * so a revoked key is refused at once on every server. Its use is recorded at most once a
 * minute. Wrong keys are counted per client network and answered 429 past a limit.
 */
export default fp(async function officeKeys(app: FastifyInstance) {
  app.decorate('officeFile', createOfficeFile(app.db, app.fileItems));
  app.decorateRequest('officeKey', null);

  const failures = new Map<string, { count: number; until: number }>();
  const touched = new Map<string, number>();

  app.guardAccess('office-key', async (request, reply) => {
    const presented = bearerOf(request.headers.authorization);
    const key = presented ? await verifyOfficeKey(app.db, presented) : undefined;
    if (!key) {
      // a live key always passes, so a flood of wrong ones locks no office out; past the limit they are
      // answered 429 (a key has 256 random bits: guessing is hopeless anyway; this keeps a flood slow and loud)
      if (presented) {
        const network = clientNetwork(request.ip, app.config.networkPrefixV4);
        const now = Date.now();
        if (failures.size > 10_000) for (const [at, entry] of failures) if (entry.until <= now) failures.delete(at);
        if (failures.size > 10_000) failures.clear();
        const failed = failures.get(network);
        const entry = failed && failed.until > now ? failed : { count: 0, until: now + MINUTE };
        entry.count++;
        failures.set(network, entry);
        if (entry.count > OFFICE_KEY_FAILURES_PER_MINUTE) throw tooManyRequests(entry.until - now);
      }
      reply.header('www-authenticate', 'Bearer realm="office"');
      throw new HttpError(401, apiMessages.office_key_invalid, { code: 'OFFICE_KEY_INVALID' });
    }
    request.officeKey = { id: key.id, name: key.name };
    const now = Date.now();
    if ((touched.get(key.id) ?? 0) + MINUTE <= now) {
      touched.set(key.id, now);
      await touchOfficeKey(app.db, key.id);
    }
  });
}, { name: 'office-keys', dependencies: ['database', 'file-items'] });
