import rateLimit from '@fastify/rate-limit';
import { clientNetwork } from '../../lib/client-network.ts';
import type { FastifyInstance } from 'fastify';
import { perAddressLimit } from '../../lib/too-many-requests.ts';

/**
 * Look-ups per client address and minute. Typing sends at most a few a second (200 ms
 * debounce), and a school's computer room may share one address.
 */
const LOOKUPS_PER_IP_PER_MINUTE = 600;

/** GET /lookup/find of spec section 7: school and ZIP suggestions, and the record a choice fills in. Public. */
export default async function lookupRoutes(app: FastifyInstance) {
  await app.register(rateLimit, perAddressLimit(LOOKUPS_PER_IP_PER_MINUTE, (ip) => `${clientNetwork(ip, app.config.networkPrefixV4)}|lookup`));

  app.endpoint('findLookups', (request) => app.lookups.find(request.query));
}
