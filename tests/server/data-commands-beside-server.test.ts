import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../src/server/lib/data-dir-lock.ts';
import { confirmedApplicantOverHttp, freePort, startProcessServer, type HttpSession, type ProcessServer } from '../helpers/process-server.ts';
import { builtCommand } from '../helpers/built-server.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The office's commands on the default set-up: the embedded database, whose folder only one
 * process may open. Each data command is run as its own process beside a running server
 * (the server runs it on its admin channel); afterwards the server still serves every
 * answer saved before, and after a restart the links made meanwhile are listed and open.
 * A second server on the same folder refuses to start, and a server killed outright
 * (SIGKILL) leaves no lock that stops the next start.
 */
describe('office commands beside a running server on the embedded database', () => {
  let server: ProcessServer;
  let applicant: HttpSession;
  const email = 'office-commands@example.org';
  const saved = { first_name: 'Adaeze', last_name: 'Okonkwo-Brennan', city: 'Boise' };
  const outDir = mkdtempSync(join(tmpdir(), 'office-export-'));
  let staffLink = '';
  let revokedLink = '';
  let prefillLink = '';

  type Outcome = { code: number; stdout: string; stderr: string };
  const command = (script: string, ...args: string[]) => new Promise<Outcome>((done) => {
    execFile(process.execPath, builtCommand(script, ...args), {
      cwd: ROOT,
      // the office's own shell: the server's folder, nothing else of its settings
      env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: '', PUBLIC_URL: '', LOG_LEVEL: 'warn' },
      timeout: 170_000,
    }, (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }));
  });
  const serviceView = (url: string) => fetch(`${server.url}/service/tmp-pdf?service_token=${encodeURIComponent(new URL(url).searchParams.get('service_token')!)}`);
  const answersNow = async () => (await applicant.get<{ answer: Record<string, unknown> }>('/api/profile')).body.answer;

  beforeAll(async () => {
    // a start on a machine other work keeps busy can take minutes
    server = await startProcessServer({ readyTimeoutMs: 170_000 });
    applicant = await confirmedApplicantOverHttp(server, email);
    expect((await applicant.put('/api/answer', saved)).status).toBe(200);
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('makes, lists and revokes staff links through the server; each link works at once', async () => {
    const made = await command('service-link', email, '--minutes', '120', '--by', 'registrar');
    expect(made.code, made.stderr).toBe(0);
    staffLink = made.stdout.split('\n')[0]!;
    const opened = await serviceView(staffLink);
    expect(opened.status).toBe(200);
    expect(((await opened.json()) as { answer: Record<string, unknown> }).answer.first_name).toBe(saved.first_name);
    // the running server's own address, not the shell's default
    expect(staffLink).toMatch(new RegExp(`^${server.url}/about\\?service_token=`));

    const second = await command('service-link', email, '--by', 'registrar');
    revokedLink = second.stdout.split('\n')[0]!;
    const secondId = /link ([0-9a-f-]{36})/.exec(second.stdout)![1]!;
    const revoked = await command('service-link', '--revoke', secondId.slice(0, 8), '--by', 'dean');
    expect(revoked).toMatchObject({ code: 0, stdout: expect.stringContaining(`Revoked: ${secondId} (${email})`) });
    expect((await serviceView(revokedLink)).status).toBe(401);

    const listed = await command('service-link', '--list', '--all');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${email} .* by registrar .* valid`));
    expect(listed.stdout).toMatch(new RegExp(`${secondId}  ${email} .* revoked .* by dean`));
    const unknown = await command('service-link', '--revoke', 'ffffffff');
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining('No service link ffffffff.') });
  }, 600_000);

  it('makes a prefill link through the server that opens at once', async () => {
    const made = await command('prefill-link', '--answers', JSON.stringify({ first_name: 'Chidi' }));
    expect(made.code, made.stderr).toBe(0);
    prefillLink = made.stdout.trim();
    const token = new URL(prefillLink).searchParams.get('token')!;
    const prefilled = await fetch(`${server.url}/public/tmp?token=${encodeURIComponent(token)}`);
    expect(prefilled.status).toBe(200);
    expect(await prefilled.json()).toMatchObject({ answer: { first_name: 'Chidi' } });
  }, 300_000);

  it('exports, reads the outbox, shows and replays webhook events, and loads a look-up list, all beside the server', async () => {
    const exported = await command('export-applications', '--all', '--out', outDir);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/^1 applications in .*applications-all-since-beginning\.csv/);
    const csv = readFileSync(join(outDir, 'applications-all-since-beginning.csv'), 'utf8');
    expect(csv).toContain(email);
    expect(csv).toContain(saved.last_name);

    const outbox = await command('outbox', email);
    expect(outbox.code).toBe(0);
    expect(outbox.stdout).toContain(`To: ${email}`);

    const shown = await command('webhooks', '--show', 'evt_none');
    expect(shown).toMatchObject({ code: 1, stderr: expect.stringContaining('No event evt_none.') });
    const replayed = await command('webhooks', '--since', '2020-01-01T00:00Z');
    expect(replayed).toMatchObject({ code: 0, stdout: expect.stringContaining('Queued 0 events for delivery') });

    const loaded = await command('import-lookups', '--category', 'hs_ceeb', 'tests/fixtures/lookups/hs_ceeb_malformed.csv');
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stdout).toContain('loaded:    4 (inserted 4, updated 0, unchanged 0)');
    expect(loaded.stdout).toContain('line 3: missing name');
    const found = await fetch(`${server.url}/lookup/find?text=150001&category=hs_ceeb`);
    expect(JSON.stringify(await found.json())).toContain('150001');
  }, 600_000);

  it('left the database whole: every earlier answer is served, and after a restart the same links are listed and open', async () => {
    expect(await answersNow()).toMatchObject(saved);
    await server.stop();
    expect(existsSync(join(server.dataDir, 'lock'))).toBe(false);
    expect(existsSync(join(server.dataDir, 'admin.token'))).toBe(false);
    await server.restart();

    expect(await answersNow()).toMatchObject(saved);
    expect((await serviceView(staffLink)).status).toBe(200);
    expect((await serviceView(revokedLink)).status).toBe(401);
    const token = new URL(prefillLink).searchParams.get('token')!;
    expect((await fetch(`${server.url}/public/tmp?token=${encodeURIComponent(token)}`)).status).toBe(200);
    const listed = await command('service-link', '--list');
    expect(listed.stdout).toMatch(new RegExp(`${email} .* by registrar .* valid`));
    expect(listed.stdout.trim().split('\n')).toHaveLength(1);
  }, 600_000);

  it('a second server on the same folder refuses to start and says which process has it', async () => {
    const port = await freePort();
    const second = await new Promise<Outcome>((done) => {
      execFile(process.execPath, builtCommand('main'), {
        cwd: ROOT, env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, timeout: 170_000,
      }, (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }));
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`Not started: The embedded database in ${server.dataDir} is in use by the server (npm start) (pid ${server.pid}`);
    // the first one is untouched
    expect(await answersNow()).toMatchObject(saved);
  }, 300_000);

  it('a server killed outright leaves a lock that does not stop the next start, nor a command meanwhile', async () => {
    await server.kill();
    // the killed server's lock, socket and token are still there
    expect(readdirSync(server.dataDir)).toEqual(expect.arrayContaining(['lock', 'admin.sock', 'admin.token']));
    // with no server a command opens the folder itself
    const listed = await command('service-link', '--list');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${email} .* valid`));
    expect(readdirSync(server.dataDir)).not.toContain('lock');

    await server.restart();
    expect(await answersNow()).toMatchObject(saved);
    expect((await serviceView(staffLink)).status).toBe(200);
  }, 300_000);

  it('while an office command has the folder to itself, a server refuses to start and another command refuses too', async () => {
    await server.stop();
    // this test's process stands for a command importing a long list with no server running
    const held = lockDataDir(server.dataDir, { role: 'command', name: 'npm run import:lookups' });
    try {
      await expect(server.restart()).rejects.toThrow(/Not started: The embedded database in .* is in use by npm run import:lookups \(pid \d+.*Wait for it to finish/s);
      const refused = await command('service-link', '--list');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('is in use by npm run import:lookups');
    } finally {
      held.release();
    }
    await server.restart();
    expect(await answersNow()).toMatchObject(saved);
  }, 300_000);
});
