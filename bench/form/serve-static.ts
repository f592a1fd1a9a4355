/**
 * The reference pages' server, run as a process of its own by `npm run bench:form` (as our
 * server is), so neither shares an event loop with the benchmark driving Chromium.
 *
 * Under the path prefix WITH_OUR_HEADERS names, each page is also served with our
 * server's security headers (src/server/lib/security-headers.ts). Cross-Origin-Opener-Policy
 * and Origin-Agent-Cluster decide which renderer process Chromium gives a document: a fresh
 * page of the benchmark's Chromium keeps its first process for a page without them, and
 * starts another for one with them (about 100 ms on this machine before the first script
 * is asked for).
 * The Content-Security-Policy is left out: the plain RJSF page's validator compiles code at
 * run time, which ours forbids (our validators are compiled at build time).
 */
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { securityHeaders } from '../../src/server/lib/security-headers.ts';

const prefix = process.env.WITH_OUR_HEADERS ? `${process.env.WITH_OUR_HEADERS}/` : undefined;
const { 'content-security-policy': _csp, ...ourHeaders } = securityHeaders({ https: false });
const server = Fastify({
  logger: false,
  rewriteUrl: (request) => (prefix && request.url!.startsWith(prefix) ? request.url!.slice(prefix.length - 1) : request.url!),
});
server.addHook('onRequest', async (request, reply) => {
  if (prefix && request.originalUrl.startsWith(prefix)) reply.headers(ourHeaders);
});
server.get('/healthz', async () => ({ ok: true }));
// as our server sends them: a hashed asset kept for good, a page revalidated (its ETag)
await server.register(fastifyStatic, {
  root: process.env.STATIC_DIR!,
  setHeaders(response, path) {
    if (path.includes('/assets/')) response.header('cache-control', 'public, max-age=31536000, immutable');
  },
});
await server.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close().then(() => process.exit(0)));
