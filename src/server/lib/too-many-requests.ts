import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import messages from '../../../schemas/auth/messages.json';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { HttpError } from './http-error.ts';

/** The one 429 answer: "try again in N minutes", and Retry-After in seconds. */
export function tooManyRequests(retryAfterMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpError(429, fillTemplate(messages.rate_limited, { minutes: Math.ceil(seconds / 60) }), {
    code: 'RATE_LIMITED', retryAfterSeconds: seconds,
  });
}

/** @fastify/rate-limit per client address and minute, for the routes of one plugin, answering with the 429 above. */
export function perAddressLimit(max: number, keyOf: (ip: string, url: string | undefined) => string): RateLimitPluginOptions {
  return {
    max,
    timeWindow: 60_000,
    keyGenerator: (request) => keyOf(request.ip, request.routeOptions.url),
    errorResponseBuilder: (_request, context) => tooManyRequests(context.ttl),
  };
}
