import { existsSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

/**
 * The admin channel the office's commands use on the embedded database: a Unix socket in
 * DATA_DIR that only the server's user can open, every request carrying the token of this
 * start of the server; none of it reachable on the public listener.
 */
describe('the admin channel', () => {
  let server: TestServer;
  const socket = () => join(server.config.dataDir, 'admin.sock');
  const token = () => readFileSync(join(server.config.dataDir, 'admin.token'), 'utf8').trim();
  const ask = (path: string, authorization: string | undefined, body: string) => new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = request({
      socketPath: socket(), path, method: 'POST', agent: false,
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; }).on('end', () => resolve({ status: incoming.statusCode!, body: text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  it('is a socket and a token only the server\'s user can read', () => {
    expect(statSync(socket()).isSocket()).toBe(true);
    expect(statSync(socket()).mode & 0o777).toBe(0o600);
    expect(statSync(join(server.config.dataDir, 'admin.token')).mode & 0o777).toBe(0o600);
  });

  it('refuses a request without this start\'s token, and runs one with it', async () => {
    const list = JSON.stringify({ all: true });
    expect((await ask('/operations/service-link.list', undefined, list)).status).toBe(401);
    expect((await ask('/operations/service-link.list', `Bearer ${'x'.repeat(token().length)}`, list)).status).toBe(401);
    expect((await ask('/operations/service-link.list', token(), list)).status).toBe(401);
    const answered = await ask('/operations/service-link.list', `Bearer ${token()}`, list);
    expect(answered).toEqual({ status: 200, body: JSON.stringify({ result: [] }) });
    expect(await ask('/operations/no.such', `Bearer ${token()}`, '{}')).toMatchObject({ status: 404 });
    expect(await ask('/operations/service-link.list', `Bearer ${token()}`, '{"all":"yes"}')).toEqual({ status: 400, body: JSON.stringify({ error: 'all must be true or false' }) });
    expect(await ask('/operations/applications.export', `Bearer ${token()}`, '{"outDir":"exports","format":"csv","all":true,"documents":false}'))
      .toMatchObject({ status: 400, body: expect.stringContaining('absolute path') });
  });

  it('is not on the public listener', async () => {
    const response = await fetch(`${server.url}/operations/service-link.list`, {
      method: 'POST', headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' }, body: '{"all":true}',
    });
    expect(response.status).toBe(404);
  });

  it('is gone, token and all, once the server stops', async () => {
    await server.stop();
    expect(existsSync(socket())).toBe(false);
    expect(existsSync(join(server.config.dataDir, 'admin.token'))).toBe(false);
    expect(existsSync(join(server.config.dataDir, 'lock'))).toBe(false);
    await server.start();
    expect(statSync(socket()).isSocket()).toBe(true);
  });
});
