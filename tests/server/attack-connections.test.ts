import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';

/**
 * A client with no account must not hold sockets for ever: a request sent a byte at a time
 * is cut off with a 408, and one address holding its share of connections is refused
 * while everyone else (and the database) is still served.
 */
interface RawClient {
  socket: net.Socket;
  /** everything the server wrote, once it closed the connection */
  closed: Promise<string>;
  /** a byte every `everyMs`, until the server closes the connection */
  trickle(text: string, everyMs: number): void;
}

function connect(port: number, localAddress = '127.0.0.1'): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const closed = new Promise<string>((resolveClosed) => {
      socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
      socket.on('error', () => {}); // a reset after the answer is still a close
      socket.once('close', () => {
        clearInterval(timer);
        resolveClosed(received);
      });
    });
    const trickle = (text: string, everyMs: number) => {
      let at = 0;
      timer = setInterval(() => {
        if (socket.destroyed || !socket.writable) return clearInterval(timer);
        socket.write(text[at % text.length]!);
        at++;
      }, everyMs);
    };
    socket.once('connect', () => resolve({ socket, closed, trickle }));
    socket.once('error', reject);
  });
}

function statusOf(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
}

function bodyOf(answer: string): { code?: string; message?: string; status?: string } {
  const body = answer.split('\r\n\r\n')[1] ?? '';
  return body ? JSON.parse(body) : {};
}

/** GET path from a given local address, over a fresh connection. */
function get(port: number, path: string, localAddress: string): Promise<{ status: number; body: unknown }> {
  return connect(port, localAddress).then((client) => {
    client.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    return client.closed.then((answer) => ({ status: statusOf(answer), body: bodyOf(answer) }));
  });
}

function connections(server: TestServer): Promise<number> {
  return new Promise((resolve, reject) => server.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

describe.each(databaseTargets())('socket phases end on $name', (target) => {
  let server: TestServer;
  let port: number;

  beforeAll(async () => {
    // lowered so the test does not wait for the real defaults (20 s, 60 s, 72 s)
    server = await startTestServerOn(target, {
      env: { HEADERS_TIMEOUT_MS: '400', REQUEST_TIMEOUT_MS: '600', UPLOAD_TIMEOUT_MS: '600000', KEEP_ALIVE_TIMEOUT_MS: '300', SOCKET_IDLE_TIMEOUT_MS: '600000' },
    });
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server?.close());

  it('cuts off a request whose headers come a byte at a time, with a 408', async () => {
    const client = await connect(port);
    client.socket.write('POST /public/login HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    client.trickle('X-Slow: aaaaaaaaaaaaaaaaaaaa', 50);
    const answer = await client.closed;
    expect(statusOf(answer)).toBe(408);
    expect(bodyOf(answer).code).toBe('REQUEST_TIMEOUT');
  });

  it('cuts off a request whose body comes a byte at a time, with a 408', async () => {
    const client = await connect(port);
    client.socket.write('POST /public/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"email":"');
    client.trickle('a', 50);
    const answer = await client.closed;
    expect(statusOf(answer)).toBe(408);
    expect(bodyOf(answer)).toMatchObject({ code: 'REQUEST_TIMEOUT', message: expect.any(String) });
  });

  it('gives an upload its longer time: a slow upload is still open when a slow ordinary request is cut off', async () => {
    const upload = await connect(port);
    upload.socket.write('POST /uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 500000\r\n\r\n--b\r\n');
    upload.trickle('x', 50);
    const ordinary = await connect(port);
    ordinary.socket.write('POST /public/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
    ordinary.trickle(' ', 50);
    expect(statusOf(await ordinary.closed)).toBe(408);
    expect(upload.socket.destroyed).toBe(false);
    upload.socket.destroy();
  });

  it('closes a connection that never sends a request, and a kept-alive one left idle', async () => {
    const silent = await connect(port);
    expect(statusOf(await silent.closed)).toBe(408);

    const kept = await connect(port);
    kept.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const answer = await kept.closed;
    // answered, then closed by the server without another word
    expect(statusOf(answer)).toBe(200);
    expect(answer.match(/HTTP\/1\.1/g)).toHaveLength(1);
  });
});

describe.each(databaseTargets())('connections per address on $name', (target) => {
  const SHARE = 6;
  let server: TestServer;
  let port: number;

  beforeAll(async () => {
    server = await startTestServerOn(target, { env: { MAX_CONNECTIONS_PER_ADDRESS: String(SHARE), HEADERS_TIMEOUT_MS: '600000', REQUEST_TIMEOUT_MS: '600000', UPLOAD_TIMEOUT_MS: '600000' } });
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server?.close());

  it('refuses one address beyond its share while another address is served and the database stays up', async () => {
    const held = await Promise.all(Array.from({ length: SHARE }, () => connect(port)));
    held.forEach((client) => client.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '));
    await until(async () => ((await connections(server)) >= SHARE ? true : undefined), 'the held connections accepted');

    const refused = await Promise.all(Array.from({ length: 3 }, () => connect(port)));
    for (const client of refused) {
      const answer = await client.closed;
      expect(statusOf(answer)).toBe(429);
      expect(answer).toMatch(/\r\nRetry-After: \d+\r\n/i);
      expect(bodyOf(answer).code).toBe('TOO_MANY_CONNECTIONS');
    }
    expect(held.every((client) => !client.socket.destroyed)).toBe(true);

    // another address on this machine is another client; loopback sees the health check's details
    const health = await get(port, '/healthz', '127.0.0.2');
    expect(health).toMatchObject({ status: 200, body: { status: 'ok', database: { ok: true } } });

    // the share is given back as the held connections close
    held.forEach((client) => client.socket.destroy());
    await until(async () => ((await connections(server)) === 0 ? true : undefined), 'the held connections closed');
    expect(await get(port, '/healthz', '127.0.0.1')).toMatchObject({ status: 200 });
  });
});

describe.each(databaseTargets())('clients behind a trusted proxy on $name', (target) => {
  const SHARE = 2;
  let server: TestServer;
  let port: number;

  beforeAll(async () => {
    server = await startTestServerOn(target, { env: { TRUST_PROXY: '127.0.0.1', MAX_CONNECTIONS_PER_ADDRESS: String(SHARE), REQUEST_TIMEOUT_MS: '600000', UPLOAD_TIMEOUT_MS: '600000' } });
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server?.close());

  it('counts each forwarded client, not the proxy, and believes no header from anyone else', async () => {
    const slowBody = (forwardedFor: string) => `POST /public/login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: ${forwardedFor}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`;
    // the proxy carries more connections than one client's share
    const held = await Promise.all(Array.from({ length: SHARE }, () => connect(port)));
    held.forEach((client) => client.socket.write(slowBody('203.0.113.7')));
    await until(async () => ((await connections(server)) >= SHARE ? true : undefined), 'the held requests accepted');

    // once the proxy has handed both on, a third request of the same client is refused
    const healthFor = (forwardedFor: string) => connect(port).then((client) => {
      client.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: ${forwardedFor}\r\nConnection: close\r\n\r\n`);
      return client.closed;
    });
    const answer = await until(async () => {
      const text = await healthFor('203.0.113.7');
      return statusOf(text) === 429 ? text : undefined;
    }, 'a request beyond the client\'s share refused');
    expect(bodyOf(answer).code).toBe('TOO_MANY_CONNECTIONS');

    expect(statusOf(await healthFor('198.51.100.9'))).toBe(200);

    // a peer that is not the proxy is counted by its own address, whatever it forwards
    const direct = await Promise.all(Array.from({ length: SHARE + 1 }, (_, index) => connect(port, '127.0.0.3').then((client) => {
      client.socket.write(slowBody(`192.0.2.${index}`));
      return client;
    })));
    expect(statusOf(await direct[SHARE]!.closed)).toBe(429);
    [...held, ...direct].forEach((client) => client.socket.destroy());
  });
});
