import type { IncomingMessage, ServerResponse } from 'node:http';

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface PacedRequests {
  /** the server's request listener that hands each request to `handler` in its turn */
  listenerFor(handler: RequestHandler): RequestHandler;
  /** how many requests wait for a later turn of the event loop */
  waiting(): number;
}

/**
 * Hands requests on at most `perTurn` in one turn of the event loop; the others wait, in
 * arrival order, for the next turns (a `setImmediate`, so the sockets' and the database
 * thread's events are read in between). What a request costs the event loop before its
 * first wait (Fastify's routing and hooks, the body's parse, the contract's check) is then
 * spread over turns: when a thousand saves arrive together, the loop no longer spends one
 * 130 ms turn on them while every other answer, the health check's too, waits.
 * Requests for which `immediate` says so (the health check) never wait: they ask whether
 * the server answers now. Nothing is held once handed on, so a slow client (a body sent
 * byte by byte) takes no one's place. A request whose client left while it waited is
 * dropped unread.
 */
export function pacedRequests({ perTurn, immediate }: {
  perTurn: number;
  immediate: (request: IncomingMessage) => boolean;
}): PacedRequests {
  const queue: [IncomingMessage, ServerResponse, RequestHandler][] = [];
  let handedThisTurn = 0;
  let turnScheduled = false;

  const scheduleTurn = () => {
    if (turnScheduled) return;
    turnScheduled = true;
    setImmediate(nextTurn);
  };
  // the next turn starts with a fresh count, and hands on what waits
  const hand = (request: IncomingMessage, response: ServerResponse, handler: RequestHandler) => {
    handedThisTurn++;
    scheduleTurn();
    handler(request, response);
  };
  function nextTurn() {
    turnScheduled = false;
    handedThisTurn = 0;
    while (queue.length > 0 && handedThisTurn < perTurn) {
      const [request, response, handler] = queue.shift()!;
      if (!request.socket.destroyed) hand(request, response, handler);
    }
  }

  return {
    listenerFor: (handler) => (request, response) => {
      if (immediate(request)) return handler(request, response);
      if (queue.length === 0 && handedThisTurn < perTurn) return hand(request, response, handler);
      queue.push([request, response, handler]);
      scheduleTurn();
    },
    waiting: () => queue.length,
  };
}
