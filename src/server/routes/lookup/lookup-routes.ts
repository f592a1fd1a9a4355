import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import messages from '../../../../schemas/auth/messages.json';
import lookupText from '../../../../schemas/text/lookup.json';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { HttpError } from '../../lib/http-error.ts';
import { findDetails, findSuggestions } from '../../lookups/find-lookups.ts';
import { parseLookupQuery } from '../../lookups/lookup-query.ts';

/**
 * Look-ups per client address and minute. Typing sends at most a few a second (200 ms
 * debounce), and a school's computer room may share one address.
 */
const LOOKUPS_PER_IP_PER_MINUTE = 600;

/** GET /lookup/find of spec section 7: school and ZIP suggestions, and the record a choice fills in. Public. */
export default async function lookupRoutes(app: FastifyInstance) {
  await app.register(rateLimit, {
    max: LOOKUPS_PER_IP_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `${request.ip}|lookup`,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, fillTemplate(messages.rate_limited, { minutes: Math.max(1, Math.ceil(context.ttl / 60_000)) }), {
        code: 'RATE_LIMITED', retryAfterSeconds: Math.ceil(context.ttl / 1000),
      }),
  });

  app.endpoint('findLookups', async (request) => {
    const query = parseLookupQuery(request.query as Record<string, unknown>);
    if (query.kind === 'suggestions') return findSuggestions(app.db, query.category, query.text, query.maxResults);
    const details = await findDetails(app.db, query.category, query.id);
    if (!details) throw new HttpError(404, lookupText.not_found, { code: 'NOT_FOUND' });
    return details;
  });
}
