import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_AHEAD_MS } from '../../src/server/answers/answer-changes.ts';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';

/**
 * Ordered saves: a save that the network holds back (a proxy timing out, a
 * retry racing a newer edit, a second tab) reaches the server after a newer one. The
 * newest change of each key must stay, whatever order the saves arrive in.
 */

/** An HTTP proxy in front of the server that holds each request until the test lets it go. */
async function startHoldingProxy(target: URL) {
  const held: { release: () => void; released: boolean }[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const forward = () => {
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer: IncomingMessage) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      incoming.pipe(upstream);
    };
    held.push({ release: forward, released: false });
    waiters.splice(0).forEach((wake) => wake());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    /** resolves once `count` requests are being held */
    async holding(count: number): Promise<void> {
      while (held.length < count) await new Promise<void>((wake) => waiters.push(wake));
    },
    /** lets the request that arrived `index`-th (from 0) go on to the server */
    release(index: number): void {
      const request = held[index]!;
      if (request.released) throw new Error(`request ${index} was already released`);
      request.released = true;
      request.release();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A save as the browser's save queue sends it: the answers and when each was changed. */
function sendThrough(proxyUrl: string, api: ApiSession, answers: Record<string, string | boolean>, clock: Record<string, number>) {
  return fetch(`${proxyUrl}/api/answer`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      cookie: [...api.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    },
    body: JSON.stringify({ ...answers, _clock: clock }),
  }).then(async (response) => ({ status: response.status, body: await response.json() as { saved: number; stale: Record<string, string | boolean> } }));
}

describe.each(databaseTargets())('saves that arrive out of order, on $name', (target) => {
  let server: TestServer;
  let counter = 0;
  const applicant = () => createConfirmedApplicant(server.app, `order${++counter}.${target.name}@example.org`);

  beforeAll(async () => {
    server = await startTestServerOn(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps the newest value when a proxy holds an older save back until after a newer one, and says what is stored instead', async () => {
    const api = await applicant();
    const proxy = await startHoldingProxy(new URL(server.url));
    const typedAt = Date.now();
    try {
      // the older save leaves first and is held; the newer one overtakes it
      const older = sendThrough(proxy.url, api, { first_name: 'Ad', gender: 'M' }, { first_name: typedAt, gender: typedAt });
      await proxy.holding(1);
      const newer = sendThrough(proxy.url, api, { first_name: 'Ada', last_name: 'Lovelace' }, { first_name: typedAt + 400, last_name: typedAt + 400 });
      await proxy.holding(2);
      proxy.release(1);
      expect(await newer).toEqual({ status: 200, body: expect.objectContaining({ saved: 2, stale: {} }) });
      proxy.release(0); // late: the client timed out on it long ago, or it was a retry
      const late = await older;
      expect(late.status).toBe(200);
      expect(late.body.stale).toEqual({ first_name: 'Ada' }); // the client shows the stored value instead
    } finally {
      await proxy.close();
    }
    // the late save's other key was new, and is kept
    expect((await api.get('/api/profile')).body.answer).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', gender: 'M' });
  });

  it('does not bring back an answer cleared by a newer change, and a retry of the same save is idempotent', async () => {
    const api = await applicant();
    const t = Date.now();
    expect((await api.put('/api/answer', { first_name: 'Ada', _clock: { first_name: t } })).status).toBe(200);
    expect((await api.put('/api/answer', { first_name: '', _clock: { first_name: t + 10 } })).body).toMatchObject({ stale: {} });
    const late = await api.put('/api/answer', { first_name: 'Ada', _clock: { first_name: t } });
    expect(late.body).toMatchObject({ saved: 0, stale: { first_name: '' } });
    expect((await api.get('/api/profile')).body.answer).toEqual({});
    // the same save twice (a retry after a lost answer) writes the same thing
    expect((await api.put('/api/answer', { first_name: 'Grace', _clock: { first_name: t + 20 } })).body).toMatchObject({ stale: {} });
    expect((await api.put('/api/answer', { first_name: 'Grace', _clock: { first_name: t + 20 } })).body).toMatchObject({ stale: {} });
    expect((await api.get('/api/profile')).body.answer).toEqual({ first_name: 'Grace' });
  });

  it('believes a clock at most a minute ahead of the server: a device set to next year cannot freeze an answer', async () => {
    const api = await applicant();
    const nextYear = Date.now() + 365 * 24 * 3600_000;
    expect((await api.put('/api/answer', { first_name: 'Future', _clock: { first_name: nextYear } })).body).toMatchObject({ stale: {} });
    // another device, its clock right, a little later: its change is newer than "a minute ahead" of the first
    const later = Date.now() + CLOCK_AHEAD_MS + 1_000;
    expect((await api.put('/api/answer', { first_name: 'Present', _clock: { first_name: later } })).body).toMatchObject({ stale: {} });
    expect((await api.get('/api/profile')).body.answer).toEqual({ first_name: 'Present' });
  });
});
