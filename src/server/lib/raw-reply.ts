import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * An error answer written straight to a socket, for the moments no Fastify reply exists (a
 * connection refused before its first request, a request whose body never came): the
 * contract's error shape all the same, and the connection closed after it.
 */
export function writeRawError(socket: Duplex, status: number, body: { message: string; code: string }, headers: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  const json = JSON.stringify(body);
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Cache-Control: no-store',
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  if (socket.writable) socket.end(`${lines.join('\r\n')}\r\n\r\n${json}`, () => socket.destroy());
  else socket.destroy();
}
