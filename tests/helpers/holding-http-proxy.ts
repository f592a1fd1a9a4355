import { createServer, request, type IncomingMessage, type Server } from 'node:http';

export interface HoldingHttpProxy {
  /** the proxy's address, for the browser (and the server's PUBLIC_URL) */
  url: string;
  /** Where requests go from now on: the server, started once the proxy's address is known. */
  forwardTo(target: string): void;
  /** Holds the requests `match` names from now on: they never reach the server. */
  hold(match: (request: IncomingMessage) => boolean): void;
  /** Resolves once a request is being held. */
  held(): Promise<void>;
  /** New requests pass again; those held stay so until their browser gives up on them. */
  stopHolding(): void;
  close(): Promise<void>;
}

/**
 * An HTTP proxy of the test's own between the browser and the server that holds chosen
 * requests: the browser sees them in flight, as on a connection that stalled, until it
 * gives up on them (a reload while a request is on its way, say).
 */
export async function startHoldingHttpProxy(): Promise<HoldingHttpProxy> {
  let target = '';
  let match: ((request: IncomingMessage) => boolean) | undefined;
  let holding = 0;
  let onHeld: Array<() => void> = [];

  const server: Server = createServer((incoming, outgoing) => {
    if (match?.(incoming)) {
      holding++;
      outgoing.on('close', () => holding--); // the browser gave up on it
      for (const resolve of onHeld) resolve();
      onHeld = [];
      return;
    }
    const upstream = request(`${target}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (reply) => {
      outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://localhost:${(server.address() as { port: number }).port}`,
    forwardTo(next) {
      target = next;
    },
    hold(next) {
      match = next;
    },
    held: () => (holding ? Promise.resolve() : new Promise((resolve) => onHeld.push(resolve))),
    stopHolding() {
      match = undefined;
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
