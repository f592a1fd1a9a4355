import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import apiMessages from '../../../schemas/text/api-messages.json';
import { clientNetwork } from '../lib/client-network.ts';
import { perAddressCount, plainAddress, trustedPeer } from '../lib/connection-cap.ts';
import { HttpError } from '../lib/http-error.ts';

/**
 * Behind a trusted proxy every client arrives on the proxy's connections, which the
 * server does not count per network (http-server.ts). There the share is counted by the
 * client's forwarded network (its address as TRUST_PROXY derives it, as an IPv4 address or
 * configured prefix, or an IPv6 /64): requests under way at once. A request past the share
 * is answered 429 and its connection closed, so that it holds nothing either.
 */
export default fp(async function proxiedClients(app: FastifyInstance) {
  const isProxy = trustedPeer(app.config.trustProxy);
  if (app.config.trustProxy === false) return;
  const underWay = perAddressCount(app.config.connections.perNetwork);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isProxy(plainAddress(request.socket.remoteAddress))) return;
    const release = underWay.take(clientNetwork(request.ip, app.config.networkPrefixV4));
    if (!release) {
      // its body (a slow upload's) is not waited for
      reply.raw.shouldKeepAlive = false;
      reply.raw.once('finish', () => request.raw.socket.destroy());
      throw new HttpError(429, apiMessages.too_many_connections, { code: 'TOO_MANY_CONNECTIONS', retryAfterSeconds: 10 });
    }
    reply.raw.once('close', release);
  });
}, { name: 'proxied-clients' });
