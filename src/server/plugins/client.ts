import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import messages from '../../../schemas/auth/messages.json';
import type { ApiErrorReply } from '../../shared/generated/api-types.ts';
import { readPagePreloads } from './page-preloads.ts';
import { isApiPath } from './security.ts';

/** A path whose last segment ends in a file extension; page routes have none. */
const FILE_NAME = /\.[A-Za-z0-9]{1,8}$/;

/**
 * Serves the built client from the same origin as the API. Every page route answers
 * index.html, with the preloads of that route in its head; the client's router decides
 * what to show. Assets go out precompressed (the build writes .br and .gz beside them).
 */
export default fp(async function client(app: FastifyInstance) {
  const root = app.config.clientDir;
  const indexPath = join(root, 'index.html');
  const built = existsSync(indexPath);
  const indexHtml = built ? readFileSync(indexPath, 'utf8') : '';
  const preloads = readPagePreloads(root);

  if (built) {
    await app.register(fastifyStatic, {
      root,
      index: false,
      wildcard: false,
      preCompressed: true,
      setHeaders(response, path) {
        // Vite puts a content hash in every asset name: safe to keep for a year
        if (path.includes('/assets/')) response.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    // split by hand: URL() throws on some hostile paths ('//[')
    const [path = '', query = ''] = request.url.split('?', 2);
    // a file that is not there (a favicon, a chunk an old page still names) is no page: the app's HTML would be read as it
    if (isApiPath(request.url) || request.method !== 'GET' || FILE_NAME.test(path)) {
      return reply.status(404).send({ message: messages.not_found, code: 'NOT_FOUND' } satisfies ApiErrorReply);
    }
    if (!built) {
      return reply.status(503).type('text/plain').send('The client is not built yet: run `npm run build`.');
    }
    // the readable twin of the session cookie (src/client/lib/session-cookie.ts); a service user reads no profile
    const signedIn = request.cookies.logged_in === '1' && !new URLSearchParams(query).has('service_token');
    const tags = preloads.tagsFor(path, signedIn);
    return reply.header('cache-control', 'no-cache').header('vary', 'cookie').type('text/html')
      .send(tags ? indexHtml.replace('</head>', `${tags}</head>`) : indexHtml);
  });
}, { name: 'client', dependencies: ['security'] });
