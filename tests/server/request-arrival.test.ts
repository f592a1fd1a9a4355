import { afterEach, describe, expect, it } from 'vitest';
import { requestArrival } from '../../src/server/db/request-order.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';

/**
 * On PGlite the server runs each request, to its reply, inside the time it reached
 * Fastify (plugins/request-order.ts), which the pool reads to lend its one connection to the
 * oldest request first (tests/server/pglite-thread.test.ts shows the lending). This is the
 * wiring through the real server: hooks, the handler's database round trips, the reply.
 * PostgreSQL's pool does not read it, and the server leaves the context off there.
 */
describe.each(databaseTargets())('the request arrival context on $name', (target) => {
  let server: TestServer | undefined;
  afterEach(() => server?.close());

  it(target.name === 'pglite' ? 'carries each request\'s arrival time to its reply, in order' : 'is not set', async () => {
    server = await startTestServerOn(target, { listen: false });
    const seen: { url: string; arrival: number | undefined }[] = [];
    server.app.addHook('onSend', async (request, _reply, payload) => {
      seen.push({ url: request.url, arrival: requestArrival.getStore() });
      return payload;
    });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}`;

    const before = performance.now();
    // /healthz waits on a database round trip; /api/profile on the session look-up
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/api/profile`, { headers: { cookie: 'session=not-a-session' } })).status).toBe(401);
    const after = performance.now();

    expect(seen.map((item) => item.url)).toEqual(['/healthz', '/api/profile']);
    if (target.name !== 'pglite') {
      expect(seen.map((item) => item.arrival)).toEqual([undefined, undefined]);
      return;
    }
    const [first, second] = seen.map((item) => item.arrival!);
    expect(first).toBeGreaterThanOrEqual(before);
    expect(second).toBeGreaterThan(first!);
    expect(second).toBeLessThanOrEqual(after);
  });
});
