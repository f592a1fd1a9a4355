import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyServerFactoryHandler } from 'fastify';
import apiMessages from '../../schemas/text/api-messages.json';
import { endpoints } from '../shared/api/contract.ts';
import { fillTemplate } from '../shared/text/fill-template.ts';
import type { Config } from './config.ts';
import { clientNetwork } from './lib/client-network.ts';
import { networkConnections, plainAddress, trustedPeer } from './lib/connection-cap.ts';
import type { PacedRequests } from './lib/paced-requests.ts';
import { writeRawError } from './lib/raw-reply.ts';

const uploadPath = endpoints.upload!.path;
const isUpload = (request: IncomingMessage) => request.method === 'POST' && (request.url ?? '').split('?')[0] === uploadPath;

/** Seconds a refused client is asked to wait: about when a browser's idle connections have closed. */
const RETRY_AFTER_SECONDS = 10;

/**
 * Node's answer to a client that broke HTTP or ran out of time, in the contract's error
 * shape (Fastify's own carries codes the contract does not know). Fastify's
 * `clientErrorHandler`; also what a request's own deadline ends with.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return writeRawError(socket, 408, { message: apiMessages.request_timeout, code: 'REQUEST_TIMEOUT' });
  }
  writeRawError(socket, error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400, { message: fillTemplate(apiMessages.invalid_request, { where: 'request' }), code: 'BAD_REQUEST' });
}

function requestTimeoutError(): NodeJS.ErrnoException {
  return Object.assign(new Error('the request did not arrive in time'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
}

/**
 * Node's HTTP server as Fastify makes it, with an end to every phase of a connection and a
 * share of connections per client address (config.connections):
 * - headers: Node's headersTimeout, from the request's first byte (or the connection's start);
 * - body: its own timer per request, from the headers on; an upload's is longer;
 * - idle: keepAliveTimeout between requests, and no connection silent both ways for longer
 *   than the idle timeout;
 * - an upload's body must keep a minimum rate: a window (UPLOAD_RATE_WINDOW_MS) in which
 *   fewer bytes than MIN_UPLOAD_BYTES_PER_SECOND allow arrive ends it with a 408;
 * - a client network (clientNetwork: an IPv4 address or configured prefix, an IPv6 /64)
 *   holding its share is answered 429 and closed at once, before any byte is parsed, and at
 *   the total a newcomer displaces the oldest connection of the network holding the most
 *   (lib/connection-cap.ts). A peer TRUST_PROXY names carries many clients, so it is not
 *   counted per network here: its clients are counted by their forwarded network, per
 *   request (plugins/proxied-clients.ts).
 * Requests are handed on by `pacing` (lib/paced-requests.ts).
 */
export function guardedServer(config: Config, pacing: PacedRequests) {
  const limits = config.connections;
  return (handler: FastifyServerFactoryHandler) => {
    const held = networkConnections({ perNetwork: limits.perNetwork, total: limits.total });
    const isProxy = trustedPeer(config.trustProxy);
    const refused = new WeakSet<Socket>();
    const paced = pacing.listenerFor(handler);

    const listener = (request: IncomingMessage, response: ServerResponse) => {
      // a refused connection's request, parsed before its socket closed, is not served
      if (refused.has(request.socket)) return void request.socket.destroy();
      const timer = setTimeout(() => {
        if (request.complete || request.socket.destroyed) return;
        if (response.headersSent) return void request.socket.destroy();
        server.emit('clientError', requestTimeoutError(), request.socket);
      }, isUpload(request) ? limits.uploadTimeoutMs : limits.requestTimeoutMs);
      const rate = isUpload(request) ? minimumRate(request, response) : undefined;
      response.once('close', () => {
        clearTimeout(timer);
        clearInterval(rate);
      });
      paced(request, response);
    };

    /** An upload whose body falls below the minimum rate in a window ends as one that ran out of time. */
    const minimumRate = (request: IncomingMessage, response: ServerResponse): NodeJS.Timeout => {
      const socket = request.socket;
      let before = socket.bytesRead;
      const timer = setInterval(() => {
        if (request.complete || socket.destroyed) return void clearInterval(timer);
        const arrived = socket.bytesRead - before;
        before = socket.bytesRead;
        if (arrived * 1000 >= limits.minUploadBytesPerSecond * limits.uploadRateWindowMs) return;
        clearInterval(timer);
        if (response.headersSent) return void socket.destroy();
        server.emit('clientError', requestTimeoutError(), socket);
      }, limits.uploadRateWindowMs);
      timer.unref();
      return timer;
    };

    const server = createServer({
      headersTimeout: limits.headersTimeoutMs,
      // Node's own limit on a whole request, counted from its first byte: only a backstop
      // here, the per-route timers above are shorter
      requestTimeout: limits.headersTimeoutMs + limits.uploadTimeoutMs,
      // how often Node looks for connections past headersTimeout (its default is 30 s)
      connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(limits.headersTimeoutMs / 4))),
    }, listener);
    server.keepAliveTimeout = limits.keepAliveTimeoutMs;
    server.setTimeout(limits.idleTimeoutMs);
    // a little above the total: a newcomer is accepted, then takes the place of a hog's
    // connection (held.admit) or is closed; beyond it Node closes new connections unanswered
    server.maxConnections = limits.total + Math.max(8, Math.ceil(limits.total / 16));
    server.on('connection', (socket: Socket) => {
      const address = plainAddress(socket.remoteAddress);
      const admitted = held.admit(socket, isProxy(address) ? undefined : clientNetwork(address, config.networkPrefixV4));
      if (admitted === 'admitted') return;
      refused.add(socket);
      // the total is full of connections no newcomer may displace: closed unanswered, as at Node's own limit
      if (admitted === 'full') return void socket.destroy();
      writeRawError(socket, 429, { message: apiMessages.too_many_connections, code: 'TOO_MANY_CONNECTIONS' }, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
    });
    return server;
  };
}
