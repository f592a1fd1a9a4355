/**
 * The reference pages' server, run as a process of its own by `npm run bench:form` (as our
 * server is), so neither shares an event loop with the benchmark driving Chromium.
 */
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

const server = Fastify({ logger: false });
server.get('/healthz', async () => ({ ok: true }));
await server.register(fastifyStatic, { root: process.env.STATIC_DIR! });
await server.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close().then(() => process.exit(0)));
