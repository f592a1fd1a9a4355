import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signServiceToken } from '../../src/server/pdf/service-token.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { builtCommand } from '../helpers/built-server.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Staff links: each one recorded with who made it, listed, and revoked before it
 * expires; a revoked link is refused at once by every server on the database. On
 * PostgreSQL two servers share it and the office's command runs as a process of its own;
 * the embedded database is one process, so there the command's own functions run inside it.
 */
describe.each(databaseTargets())('staff links on $name', (target) => {
  let a: TestServer;
  let b: TestServer | undefined;
  let drop: () => Promise<void>;
  const email = `staff-link-${target.name}@example.org`;
  const view = (server: TestServer, url: string) => server.app.inject({ method: 'GET', url: `/service/tmp-pdf?service_token=${new URL(url).searchParams.get('service_token')!}` });
  const command = async (...args: string[]) => (await promisify(execFile)(process.execPath, builtCommand('service-link', ...args), {
    cwd: ROOT, env: { ...process.env, DATABASE_URL: a.config.databaseUrl!, PUBLIC_URL: 'https://apply.example.edu', LOG_LEVEL: 'warn' },
  })).stdout;

  beforeAll(async () => {
    const database = await target.create();
    drop = database.drop;
    a = await startTestServer({ databaseUrl: database.url });
    if (database.url) b = await startTestServer({ databaseUrl: database.url });
    const api = await createConfirmedApplicant(a.app, email);
    await api.put('/api/answer', { first_name: 'Linda' });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await drop?.();
  });

  it('records who made a link and for whom; a revoke holds at once on every server', async () => {
    const link = (await a.app.staffLinks.make(email, 'registrar', 60, a.config.publicUrl))!;
    const servers = b ? [a, b] : [a];
    for (const server of servers) {
      const opened = await view(server, link.url);
      expect(opened.statusCode).toBe(200);
      expect(opened.json().answer.first_name).toBe('Linda');
    }
    const [listed] = await a.app.staffLinks.list(false);
    expect(listed).toMatchObject({ id: link.id, email, made_by: 'registrar', revoked_at: null });
    expect(listed!.expires_at.getTime()).toBe(link.expiresAt.getTime());

    expect(await a.app.staffLinks.revoke(link.id.slice(0, 8), 'dean')).toMatchObject({ status: 'revoked', link: { id: link.id, revoked_by: 'dean' } });
    for (const server of servers) expect((await view(server, link.url)).statusCode).toBe(401);
    expect((await a.app.staffLinks.revoke(link.id, 'someone else')).status).toBe('already revoked');
    expect((await a.app.staffLinks.revoke('ffffffff', 'dean')).status).toBe('not found');
  });

  it('revoked twice at once (two staff, two servers on PostgreSQL): one revoke wins, the other is told who revoked it and when', async () => {
    const servers = b ? [a, b] : [a, a];
    for (let round = 0; round < 6; round++) {
      const link = (await a.app.staffLinks.make(email, 'registrar', 60, a.config.publicUrl))!;
      const results = await Promise.all([servers[0]!.app.staffLinks.revoke(link.id, 'dean'), servers[1]!.app.staffLinks.revoke(link.id.slice(0, 8), 'night desk')]);
      expect(results.map((result) => result.status).sort()).toEqual(['already revoked', 'revoked']);
      const winner = results.find((result) => result.status === 'revoked') as Extract<(typeof results)[number], { link: unknown }>;
      const loser = results.find((result) => result.status === 'already revoked') as Extract<(typeof results)[number], { link: unknown }>;
      // the loser's answer names the revoke that holds, not the link as it read it before
      expect(loser.link.revoked_by).toBe(winner.link.revoked_by);
      expect(loser.link.revoked_at?.getTime()).toBe(winner.link.revoked_at?.getTime());
      const stored = await a.app.db.selectFrom('service_links').select(['revoked_by', 'revoked_at']).where('id', '=', link.id).executeTakeFirstOrThrow();
      expect(stored).toEqual({ revoked_by: winner.link.revoked_by, revoked_at: winner.link.revoked_at });
      for (const server of servers) expect((await view(server, link.url)).statusCode).toBe(401);
    }
  });

  it('keeps the printer\'s own short tokens unrecorded, and refuses a long one that no link records', async () => {
    const id = (await a.app.db.selectFrom('applicants').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const printer = signServiceToken(a.app.serviceSecret, id, 5 * 60_000);
    const unrecorded = signServiceToken(a.app.serviceSecret, id, 60 * 60_000);
    const forged = signServiceToken(a.app.serviceSecret, id, 60 * 60_000, Date.now(), '00000000-0000-4000-8000-000000000000');
    const status = async (token: string) => (await a.app.inject({ method: 'GET', url: `/service/tmp-pdf?service_token=${encodeURIComponent(token)}` })).statusCode;
    expect(await status(printer)).toBe(200);
    expect(await status(unrecorded)).toBe(401);
    expect(await status(forged)).toBe(401);
  });

  it.skipIf(target.name !== 'postgres')('npm run service-link makes, lists and revokes beside the running servers', async () => {
    const made = await command(email, '--minutes', '30', '--by', 'admissions night desk');
    const url = made.split('\n')[0]!;
    expect(url).toMatch(/^https:\/\/apply\.example\.edu\/about\?service_token=/);
    expect((await view(b!, url)).statusCode).toBe(200);
    const id = /link ([0-9a-f-]{36})/.exec(made)![1]!;

    expect(await command('--list')).toMatch(new RegExp(`${id}  ${email}  made \\S+ by admissions night desk  expires \\S+  valid`));
    expect(await command('--revoke', id.slice(0, 8), '--by', 'dean')).toContain(`Revoked: ${id}`);
    expect((await view(b!, url)).statusCode).toBe(401);
    expect((await view(a, url)).statusCode).toBe(401);
    expect(await command('--list')).not.toContain(id); // revoked links leave the list of valid ones
    expect(await command('--list', '--all')).toMatch(new RegExp(`${id}.*revoked \\S+ by dean`));
    // a second revoke says whose revoke holds
    expect(await command('--revoke', id, '--by', 'night desk')).toMatch(new RegExp(`^Already revoked \\S+ by dean: ${id}`));
  });
});
