import type { IncomingMessage, Server, ServerResponse } from 'node:http';

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Drops the requests a test names at the server's door, their connections cut, until the
 * returned function lets them through again: a network that loses what a closing page hands
 * the browser to send, which the browser's offline emulation does not stop (it belongs to the
 * page, and a keepalive request outlives its page).
 */
export function dropRequests(server: Server, drops: (request: IncomingMessage) => boolean): () => void {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const gate: RequestListener = (request, response) => {
    if (drops(request)) {
      request.socket.destroy();
      return;
    }
    for (const listener of listeners) listener.call(server, request, response);
  };
  server.on('request', gate);
  return () => {
    server.removeListener('request', gate);
    for (const listener of listeners) server.on('request', listener);
  };
}
