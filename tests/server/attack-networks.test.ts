import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';

/**
 * Connections are counted per network, not per address: addresses are cheap (a whole /64
 * of IPv6 to one host, a range of IPv4 to one attacker), the file descriptors they hold are
 * not. Slow uploads from 64 addresses of one /24, or of one /64, leave a new visitor served,
 * and an upload that does not keep a minimum rate is ended.
 */

interface RawClient {
  socket: net.Socket;
  /** everything the server wrote, once the connection closed */
  closed: Promise<string>;
}

function connect(port: number, localAddress = '127.0.0.1'): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    let received = '';
    const closed = new Promise<string>((resolveClosed) => {
      socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
      socket.on('error', () => {}); // a reset is a close too
      socket.once('close', () => resolveClosed(received));
    });
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const codeOf = (answer: string) => (JSON.parse(answer.split('\r\n\r\n')[1] || '{}') as { code?: string }).code;

/** The start of an upload that never ends: its headers and a first part, the rest never sent. */
const slowUpload = (forwardedFor?: string) => `POST /uploads HTTP/1.1\r\nHost: 127.0.0.1\r\n${forwardedFor ? `X-Forwarded-For: ${forwardedFor}\r\n` : ''}Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 900000\r\n\r\n--b\r\n`;

/** A new visitor's health check over a fresh connection: its status (NaN when closed unanswered). */
async function visit(port: number, localAddress: string, forwardedFor?: string): Promise<number> {
  const client = await connect(port, localAddress);
  client.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n${forwardedFor ? `X-Forwarded-For: ${forwardedFor}\r\n` : ''}Connection: close\r\n\r\n`);
  return statusOf(await client.closed);
}

const connections = (server: TestServer) => new Promise<number>((resolve, reject) => server.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));

// the held uploads never time out during the test: what ends them is what is tested
const PATIENT = { HEADERS_TIMEOUT_MS: '600000', REQUEST_TIMEOUT_MS: '600000', UPLOAD_TIMEOUT_MS: '600000', MIN_UPLOAD_BYTES_PER_SECOND: '0' };

describe.each(databaseTargets())('connections per network on $name', (target) => {
  let server: TestServer | undefined;
  const held: RawClient[] = [];
  afterEach(async () => {
    for (const client of held.splice(0)) client.socket.destroy();
    await server?.close();
    server = undefined;
  });

  it('slow uploads from 64 addresses of one /24, each within its share, leave a new visitor served', async () => {
    // a total of 96, and the attacker's 64 addresses hold two each: 128 wanted
    server = await startTestServerOn(target, { env: { ...PATIENT, MAX_CONNECTIONS: '96', MAX_CONNECTIONS_PER_ADDRESS: '4' } });
    const port = Number(new URL(server.url).port);
    for (let round = 0; round < 2; round++) {
      for (let host = 1; host <= 64; host++) {
        const client = await connect(port, `127.0.0.${host}`).catch(() => undefined);
        if (!client) continue; // refused at the door: the attack only gets that far
        client.socket.write(slowUpload());
        held.push(client);
      }
    }
    await until(async () => ((await connections(server!)) <= 96 ? true : undefined), 'the connections past the total closed');
    // before: every place taken, the visitor's connection closed unanswered
    expect(await visit(port, '127.0.1.1')).toBe(200);
    expect(await visit(port, '127.0.2.1')).toBe(200);
    // each took the place of one of the attacker's, not one more descriptor
    expect(await connections(server)).toBeLessThanOrEqual(96);
  }, 120_000);

  it('slow uploads from 64 addresses of one IPv6 /64 behind the proxy count as one client: a new visitor is served', async () => {
    const SHARE = 8;
    server = await startTestServerOn(target, { env: { ...PATIENT, TRUST_PROXY: '127.0.0.1', MAX_CONNECTIONS: '48', MAX_CONNECTIONS_PER_ADDRESS: String(SHARE) } });
    const port = Number(new URL(server.url).port);
    const answers = await Promise.all(Array.from({ length: 64 }, async (_, index) => {
      const client = await connect(port);
      held.push(client);
      client.socket.write(slowUpload(`2001:db8:7:7::${(index + 1).toString(16)}`));
      return client;
    }));
    // all but the /64's share are answered 429 (or, past the total, closed unanswered) and closed: they hold nothing
    await until(async () => ((await connections(server!)) <= SHARE ? true : undefined), 'the requests past the /64\'s share closed');
    const ended = await until(async () => {
      const closed = answers.filter((client) => client.socket.destroyed);
      return closed.length >= 64 - SHARE ? closed : undefined;
    }, 'the refused connections seen closed');
    const statuses = await Promise.all(ended.map(async (client) => statusOf(await client.closed)));
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 429 || Number.isNaN(status))).toBe(true);
    // before: 64 clients of their own, every place of the total held, the visitor closed unanswered
    expect(await visit(port, '127.0.0.1', '2001:db8:9:9::1')).toBe(200);
  }, 120_000);
});

describe.each(databaseTargets())('an upload keeps a minimum rate on $name', (target) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('ends an upload whose body falls below the minimum rate with a 408; one that keeps it goes on', async () => {
    server = await startTestServerOn(target, { env: { ...PATIENT, MIN_UPLOAD_BYTES_PER_SECOND: '1000', UPLOAD_RATE_WINDOW_MS: '300' } });
    const port = Number(new URL(server.url).port);
    const slow = await connect(port);
    slow.socket.write(slowUpload());
    const slowTimer = setInterval(() => slow.socket.writable && slow.socket.write('x'), 50); // 20 bytes a second
    const steady = await connect(port, '127.0.0.2');
    steady.socket.write(slowUpload());
    const steadyTimer = setInterval(() => steady.socket.writable && steady.socket.write('y'.repeat(200)), 20); // 10 KB a second
    try {
      const answer = await slow.closed;
      expect(statusOf(answer)).toBe(408);
      expect(codeOf(answer)).toBe('REQUEST_TIMEOUT');
      expect(steady.socket.destroyed).toBe(false); // at the moment the slow one was ended
    } finally {
      clearInterval(slowTimer);
      clearInterval(steadyTimer);
      slow.socket.destroy();
      steady.socket.destroy();
    }
  }, 60_000);
});
