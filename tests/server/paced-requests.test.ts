import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';

/**
 * The server's HTTP requests reach Fastify at most 32 a turn of the event loop
 * (src/server/lib/paced-requests.ts); a burst is answered in full and in order of arrival,
 * and the health check that arrives last is handed on in the burst's first turn.
 */
describe('the server paces a burst of requests', () => {
  let server: TestServer;
  const handed: string[] = [];
  let mostWaiting = 0;

  beforeAll(async () => {
    server = await startTestServer({ listen: false });
    server.app.addHook('onRequest', async (request) => {
      handed.push(request.url);
      mostWaiting = Math.max(mostWaiting, server.app.requestPacing.waiting());
    });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => server?.close());

  it('answers every request of a burst, and the health check among the first', async () => {
    const { port } = server.app.server.address() as net.AddressInfo;
    const paths = [...Array.from({ length: 150 }, (_, index) => `/api/profile?n=${index}`), '/healthz'];
    const sockets = await Promise.all(paths.map(() => new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
      socket.once('error', reject);
    })));
    // the server has accepted every connection, so it reads all the requests in one turn
    await until(() => new Promise<true | undefined>((resolve, reject) => server.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count >= paths.length || undefined)))), 'the connections accepted');
    const answers = sockets.map((socket) => new Promise<string>((resolve) => {
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(text));
    }));
    // all written in one go
    sockets.forEach((socket, index) => socket.write(`GET ${paths[index]} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
    const texts = await Promise.all(answers);

    expect(texts.slice(0, 150).map((text) => text.split('\r\n')[0])).toEqual(Array(150).fill('HTTP/1.1 401 Unauthorized'));
    expect(texts[150]).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*"status":"ok"/);
    expect(handed).toHaveLength(151);
    expect(mostWaiting).toBeGreaterThan(0);
    // written last, handed on before most of those written before it
    expect(handed.indexOf('/healthz')).toBeLessThan(75);
  });
});
