import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import apiMessages from '../../../schemas/text/api-messages.json';
import { perAddressCount, plainAddress, trustedPeer } from '../lib/connection-cap.ts';
import { HttpError } from '../lib/http-error.ts';

/**
 * Behind a trusted proxy every client arrives on the proxy's connections, which the
 * server does not count per address (http-server.ts). There the share is counted by the
 * client's forwarded address (as TRUST_PROXY derives it): requests under way at once.
 */
export default fp(async function proxiedClients(app: FastifyInstance) {
  const isProxy = trustedPeer(app.config.trustProxy);
  if (app.config.trustProxy === false) return;
  const underWay = perAddressCount(app.config.connections.perAddress);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isProxy(plainAddress(request.socket.remoteAddress))) return;
    const release = underWay.take(plainAddress(request.ip));
    if (!release) throw new HttpError(429, apiMessages.too_many_connections, { code: 'TOO_MANY_CONNECTIONS', retryAfterSeconds: 10 });
    reply.raw.once('close', release);
  });
}, { name: 'proxied-clients' });
