import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import messages from '../../../schemas/auth/messages.json';
import apiMessages from '../../../schemas/text/api-messages.json';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { isHttps } from '../config.ts';
import { HttpError } from '../lib/http-error.ts';
import { securityHeaders } from '../lib/security-headers.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const API_PREFIXES = ['/api/', '/public/', '/service/', '/lookup/'];

export function isApiPath(url: string): boolean {
  return API_PREFIXES.some((prefix) => url.startsWith(prefix));
}

/**
 * A cookie-authenticated write must come from our own pages: browsers say so in
 * Sec-Fetch-Site (Origin is the fallback). Requests without either are not from a
 * browser, so they cannot carry a victim's cookies across sites.
 */
export function isSameOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return true;
  return origin === publicOrigin || origin === `${request.protocol}://${request.host}`;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Where a request carries text no database column can hold: a NUL character, or half of a
 * UTF-16 surrogate pair (PostgreSQL refuses both in text and jsonb). Returns the top-level
 * name it was found under ('' when a name itself is bad), or undefined. Walked without
 * recursion: a body may nest 100,000 levels deep.
 */
export function unstorableTextAt(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [item, at] = stack.pop()!;
    if (typeof item === 'string') {
      if (UNSTORABLE.test(item)) return at;
    } else if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (UNSTORABLE.test(key)) return '';
        stack.push([child, at || key]);
      }
    }
  }
  return undefined;
}

/** Security headers (CSP without unsafe-eval or inline script), CSRF defence, no caching of API answers. */
export default fp(async function security(app: FastifyInstance) {
  const https = isHttps(app.config);
  const publicOrigin = new URL(app.config.publicUrl).origin;
  // the browser POSTs uploads straight to the bucket when storage is S3 (plugins/storage.ts)
  const uploadOrigin = app.config.s3 ? (await import('../storage/s3-storage.ts')).s3UploadOrigin(app.config.s3) : undefined;

  const headers = securityHeaders({ https, uploadOrigin });
  // the same headers on every answer, the 404 and errors included
  app.addHook('onRequest', (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    reply.headers(headers);
    done();
  });

  // Decided by the route the router matched, never by the address as spelt: '/%61pi/submit'
  // reaches the '/api/submit' handler, so it must meet the same guards.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url;
    if (!isApiPath(route ?? request.url)) return;
    reply.header('cache-control', 'no-store');
    if (!route) return; // nothing answers it but the 404
    // a reminder's one-click unsubscribe is posted by the mail provider's servers, as a form:
    // its token is the authority, never a cookie, so neither rule below has anything to defend
    if (request.routeOptions.config.access === 'unsubscribe-token') return;
    const isWrite = WRITE_METHODS.has(request.method);
    // the office's systems call the office API with a key in the Authorization header, which no
    // browser adds by itself (a cookie it would): from another site is how they always come
    const keyed = request.routeOptions.config.access === 'office-key';
    if ((isWrite || route === '/api/logout') && !keyed && !isSameOrigin(request, publicOrigin)) {
      throw new HttpError(403, messages.cross_site, { code: 'CROSS_SITE' });
    }
    // a write without a body (submit, delete, keep-alive, logout) needs no type; one with a body is JSON
    if (isWrite && hasBody(request) && !request.headers['content-type']?.toLowerCase().startsWith('application/json')) {
      throw new HttpError(415, messages.json_required, { code: 'JSON_REQUIRED' });
    }
  });

  // a NUL or a lone surrogate in an answer, a file name or a look-up id is a bad request, not a database error (a 500 before)
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const route = request.routeOptions.url;
    if (!route || !isApiPath(route)) return;
    const at = [request.body, request.query, request.params].map(unstorableTextAt).find((found) => found !== undefined);
    if (at !== undefined) throw new HttpError(400, fillTemplate(apiMessages.bad_answer, { key: at || 'request' }), { code: 'BAD_TEXT' });
  });
}, { name: 'security' });
