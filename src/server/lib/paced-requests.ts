import type { IncomingMessage, ServerResponse } from 'node:http';

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface PacedRequests {
  /** the server's request listener */
  handle: RequestHandler;
  /** how many requests wait for a later turn of the event loop */
  waiting(): number;
}

/**
 * Hands requests to `handler` at most `perTurn` in one turn of the event loop; the others
 * wait, in arrival order, for the next turns (a `setImmediate`, so the sockets' and the
 * database thread's events are read in between). What a request costs the event loop
 * before its first wait (Fastify's routing and hooks, the body's parse, the contract's
 * check) is then spread over turns: when a thousand saves arrive together, the loop no
 * longer spends one 130 ms turn on them while every other answer, the health check's too,
 * waits (issue 17). Requests for which `immediate` says so (the health check) never wait:
 * they ask whether the server answers now. Nothing is held once handed on, so a slow
 * client (a body sent byte by byte) takes no one's place. A request whose client left
 * while it waited is dropped unread.
 */
export function pacedRequests(handler: RequestHandler, { perTurn, immediate }: {
  perTurn: number;
  immediate: (request: IncomingMessage) => boolean;
}): PacedRequests {
  const queue: [IncomingMessage, ServerResponse][] = [];
  let handedThisTurn = 0;
  let turnScheduled = false;

  const hand = (request: IncomingMessage, response: ServerResponse) => {
    handedThisTurn++;
    if (!turnScheduled) {
      turnScheduled = true;
      setImmediate(nextTurn);
    }
    handler(request, response);
  };
  function nextTurn() {
    turnScheduled = false;
    handedThisTurn = 0;
    while (queue.length > 0 && handedThisTurn < perTurn) {
      const [request, response] = queue.shift()!;
      if (request.socket.destroyed) continue;
      hand(request, response);
    }
    if (queue.length > 0 && !turnScheduled) {
      turnScheduled = true;
      setImmediate(nextTurn);
    }
  }

  return {
    handle(request, response) {
      if (immediate(request)) return handler(request, response);
      if (queue.length === 0 && handedThisTurn < perTurn) return hand(request, response);
      queue.push([request, response]);
      if (!turnScheduled) {
        turnScheduled = true;
        setImmediate(nextTurn);
      }
    },
    waiting: () => queue.length,
  };
}
