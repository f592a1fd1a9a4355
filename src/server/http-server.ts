import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyServerFactoryHandler } from 'fastify';
import apiMessages from '../../schemas/text/api-messages.json';
import { endpoints } from '../shared/api/contract.ts';
import { fillTemplate } from '../shared/text/fill-template.ts';
import type { Config } from './config.ts';
import { perAddressCount, plainAddress, trustedPeer } from './lib/connection-cap.ts';
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
 * - a client address holding its share is answered 429 and closed at once, before any
 *   byte is parsed. A peer TRUST_PROXY names carries many clients, so it is not counted
 *   here: its clients are counted by their forwarded address, per request (plugins/proxied-clients.ts).
 * Requests are handed on by `pacing` (lib/paced-requests.ts).
 */
export function guardedServer(config: Config, pacing: PacedRequests) {
  const limits = config.connections;
  return (handler: FastifyServerFactoryHandler) => {
    const held = perAddressCount(limits.perAddress);
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
      response.once('close', () => clearTimeout(timer));
      paced(request, response);
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
    // beyond it Node closes new connections unanswered: file descriptors stay for the database
    server.maxConnections = limits.total;
    server.on('connection', (socket: Socket) => {
      const address = plainAddress(socket.remoteAddress);
      if (isProxy(address)) return;
      const release = held.take(address);
      if (release) return void socket.once('close', release);
      refused.add(socket);
      writeRawError(socket, 429, { message: apiMessages.too_many_connections, code: 'TOO_MANY_CONNECTIONS' }, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
    });
    return server;
  };
}
