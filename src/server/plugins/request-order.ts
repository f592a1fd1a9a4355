import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { requestArrival } from '../db/request-order.ts';

/**
 * Runs each request inside its arrival time (on PGlite only, app.ts), so the embedded
 * database's single connection goes to the oldest waiting request: one that already had its
 * session looked up is not queued again behind newer ones. Registered first, so every later
 * hook and the handler run inside it.
 */
export default fp(async function requestOrderPlugin(app: FastifyInstance) {
  app.addHook('onRequest', (_request, _reply, done) => requestArrival.run(performance.now(), done));
}, { name: 'request-order' });
