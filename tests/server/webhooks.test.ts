import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { replayEvents } from '../../src/server/webhooks/webhook-delivery.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServer, startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';
import { builtCommand } from '../helpers/built-server.ts';

/**
 * Events on submit: the office's receiver checks every request's signature with
 * the standardwebhooks package (the spec's own verifier, not our signer), is down for the
 * first two attempts (a 503, then a dropped connection) and still gets the event, once per
 * webhook-id; the server stops after the 2xx, each attempt is recorded, and a replay from
 * the command line sends the same event (same id, same body) again.
 */

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const ROOT = resolve(import.meta.dirname, '..', '..');

/** The office's side: verifies, fails the first two attempts of each id, de-duplicates by id. */
function startReceiver() {
  const verifier = new Webhook(SECRET);
  const attemptsById = new Map<string, number>();
  const received = new Map<string, { body: unknown; deliveries: number }>();
  const badSignatures: string[] = [];
  const waiters: { id?: string; resolve: (id: string) => void }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event: unknown;
      try {
        event = verifier.verify(body, request.headers as Record<string, string>);
      } catch (error) {
        badSignatures.push(String(error));
        response.writeHead(400).end();
        return;
      }
      const id = request.headers['webhook-id'] as string;
      const attempt = (attemptsById.get(id) ?? 0) + 1;
      attemptsById.set(id, attempt);
      if (attempt === 1) return void response.writeHead(503).end(); // down for maintenance
      if (attempt === 2) return void request.socket.destroy(); // down hard: the connection drops
      const seen = received.get(id);
      if (seen) seen.deliveries++; // a replay: the receiver has it and drops it
      else received.set(id, { body: event, deliveries: 1 });
      response.writeHead(204).end();
      for (const waiter of waiters.splice(0)) {
        if (!waiter.id || waiter.id === id) waiter.resolve(id);
        else waiters.push(waiter);
      }
    });
  });
  return {
    attemptsById, received, badSignatures,
    /** The next successful delivery (of `id`, if given). */
    delivered: (id?: string) => new Promise<string>((resolveDelivery) => waiters.push({ ...(id ? { id } : {}), resolve: resolveDelivery })),
    listen: () => new Promise<string>((ready) => server.listen(0, '127.0.0.1', () => ready(`http://127.0.0.1:${(server.address() as { port: number }).port}/hooks/admissions`))),
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

describe.each(databaseTargets())('application.submitted webhooks on $name', (target) => {
  const receiver = startReceiver();
  let server: TestServer;

  beforeAll(async () => {
    const url = await receiver.listen();
    // retries at 2.5 ms, 150 ms, 0.9 s ... instead of 5 s, 5 min, 30 min
    server = await startTestServerOn(target, { env: { WEBHOOK_URL: url, WEBHOOK_SECRET: SECRET, JOB_RETRY_DELAY_MS: '1' } });
  });
  afterAll(async () => {
    await server?.close();
    await receiver.close();
  });

  it('delivers a signed event through a receiver that is down at first, exactly once by id, and stops after the 2xx', async () => {
    const email = `submitter-${target.name}@example.org`;
    const api = await createConfirmedApplicant(server.app, email);
    expect((await api.put('/api/answer', completeApplication())).status).toBe(200);
    const firstDelivery = receiver.delivered();
    const submit = await api.post('/api/submit');
    expect(submit.status).toBe(200); // answered while the receiver still refuses
    expect(submit.body).toEqual({ web_status: 'submitted' });

    const id = await firstDelivery;
    expect(id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(receiver.badSignatures).toEqual([]);
    const applicant = await server.app.db.selectFrom('applicants').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    expect(receiver.received.get(id)?.body).toMatchObject({
      type: 'application.submitted',
      data: { applicant_id: applicant.id, email, submitted_at: expect.any(String) },
    });

    // the job is done after its third attempt: no retry follows a 2xx
    const job = await until(async () => {
      const row = await server.app.db.selectFrom('jobs').select(['status', 'attempts']).where('kind', '=', 'webhook').executeTakeFirst();
      return row?.status === 'done' ? row : undefined;
    }, 'the webhook job to end');
    expect(job.attempts).toBe(3);
    const attempts = await server.app.db.selectFrom('webhook_attempts').select(['status_code', 'error']).where('event_id', '=', id).orderBy('id').execute();
    expect(attempts.map((attempt) => attempt.status_code)).toEqual([503, null, 204]);
    expect(attempts[1]!.error).toBeTruthy();
    expect(receiver.attemptsById.get(id)).toBe(3);

    // a second submit is harmless and sends nothing
    expect((await api.post('/api/submit')).status).toBe(200);
    expect(await server.app.db.selectFrom('webhook_events').select('id').execute()).toEqual([{ id }]);
  });

  it('replays an event by id and since a time, with the same id and body: the receiver drops the repeat', async () => {
    const [event] = await server.app.db.selectFrom('webhook_events').select(['id', 'created_at']).execute();
    const replayed = receiver.delivered(event!.id);
    if (target.name === 'postgres') {
      // the office's command, as a process of its own beside the running server
      const { stdout } = await promisify(execFile)(process.execPath, builtCommand('webhooks', '--replay', event!.id), {
        cwd: ROOT, env: { ...process.env, DATABASE_URL: server.config.databaseUrl!, LOG_LEVEL: 'warn' },
      });
      expect(stdout).toContain(`Queued 1 event for delivery: ${event!.id}`);
    } else {
      // the embedded database is one process: the command's own function, inside the server's
      expect(await replayEvents(server.app.db, { ids: [event!.id] })).toEqual({ queued: [event!.id], made: 0, unknown: [] });
    }
    server.app.jobs.poke();
    await replayed;
    expect(receiver.received.get(event!.id)?.deliveries).toBe(2);
    expect(receiver.received.size).toBe(1); // exactly once by id
    expect(receiver.badSignatures).toEqual([]);

    const since = await replayEvents(server.app.db, { since: new Date(event!.created_at.getTime() - 1000), ids: ['msg_unknown'] });
    expect(since).toEqual({ queued: [event!.id], made: 0, unknown: ['msg_unknown'] });
    server.app.jobs.poke();
    await receiver.delivered(event!.id);
    expect(receiver.received.get(event!.id)?.deliveries).toBe(3);
  });

  it('makes the missing event of a submission when replaying since a time', async () => {
    const api = await createConfirmedApplicant(server.app, `late-${target.name}@example.org`);
    expect((await api.put('/api/answer', completeApplication())).status).toBe(200);
    const delivered = receiver.delivered();
    expect((await api.post('/api/submit')).status).toBe(200);
    const id = await delivered;
    // as if it had been submitted before webhooks were set up
    await server.app.db.deleteFrom('webhook_events').where('id', '=', id).execute();
    const before = receiver.received.size;
    const { made, queued } = await replayEvents(server.app.db, { since: new Date(Date.now() - 60_000) });
    expect(made).toBe(1);
    const remade = queued.find((queuedId) => queuedId !== id && !receiver.received.has(queuedId))!;
    server.app.jobs.poke();
    await receiver.delivered(remade);
    expect(receiver.received.size).toBe(before + 1);
    expect(receiver.badSignatures).toEqual([]);
  });
});

/** A receiver that takes each request and answers only when `holds` says not to: the others it keeps, unanswered. */
function startSlowReceiver() {
  const verifier = new Webhook(SECRET);
  const attemptsById = new Map<string, number>();
  const held = new Set<Socket>();
  const waiters: { what: 'held' | 'answered'; resolve: (id: string) => void }[] = [];
  const notify = (what: 'held' | 'answered', id: string) => {
    for (const waiter of waiters.splice(0)) {
      if (waiter.what === what) waiter.resolve(id);
      else waiters.push(waiter);
    }
  };
  const receiver = {
    /** whether to keep this attempt unanswered */
    holds: (_attempt: number) => false,
    attemptsById,
    badSignatures: 0,
    next: (what: 'held' | 'answered') => new Promise<string>((resolveNext) => waiters.push({ what, resolve: resolveNext })),
    listen: () => new Promise<string>((ready) => server.listen(0, '127.0.0.1', () => ready(`http://127.0.0.1:${(server.address() as { port: number }).port}/hooks/admissions`))),
    close: () => new Promise<void>((closed) => {
      for (const socket of held) socket.destroy();
      server.close(() => closed());
    }),
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        verifier.verify(Buffer.concat(chunks).toString('utf8'), request.headers as Record<string, string>);
      } catch {
        receiver.badSignatures++;
        return void response.writeHead(400).end();
      }
      const id = request.headers['webhook-id'] as string;
      const attempt = (attemptsById.get(id) ?? 0) + 1;
      attemptsById.set(id, attempt);
      if (receiver.holds(attempt)) {
        held.add(request.socket);
        request.socket.once('close', () => held.delete(request.socket));
        notify('held', id);
        return;
      }
      response.writeHead(204).end();
      notify('answered', id);
    });
  });
  return receiver;
}

/**
 * A receiver that takes the request and never answers: the applicant's submit does not wait
 * for it, the attempt ends at WEBHOOK_TIMEOUT_MS and is recorded and retried, and a server
 * that stops meanwhile is not held by it: the attempt is cut short and sent again after the
 * restart, under the same id.
 */
describe.each(databaseTargets())('application.submitted webhooks to a receiver that does not answer, on $name', (target) => {
  const receiver = startSlowReceiver();
  let url = '';
  let server: TestServer | undefined;
  /** The event's two attempts, once both are recorded. */
  const bothAttemptsOf = (id: string) => until(async () => {
    const rows = await server!.app.db.selectFrom('webhook_attempts').select(['status_code', 'error']).where('event_id', '=', id).orderBy('id').execute();
    return rows.length === 2 ? rows : undefined;
  }, 'both attempts recorded');
  const startWithTimeLimit = async (ms: number) => {
    server = await startTestServerOn(target, { env: { WEBHOOK_URL: url, WEBHOOK_SECRET: SECRET, WEBHOOK_TIMEOUT_MS: String(ms), JOB_RETRY_DELAY_MS: '1' } });
  };
  const submitOne = async (email: string) => {
    const api = await createConfirmedApplicant(server!.app, email);
    expect((await api.put('/api/answer', completeApplication())).status).toBe(200);
    expect((await api.post('/api/submit')).status).toBe(200);
  };

  beforeAll(async () => {
    url = await receiver.listen();
  });
  afterAll(async () => {
    await server?.close();
    await receiver.close();
  });

  it('gives up an attempt without an answer at the time limit, records it and sends the event again', async () => {
    await startWithTimeLimit(300);
    receiver.holds = (attempt) => attempt === 1;
    const held = receiver.next('held');
    const answered = receiver.next('answered');
    await submitOne(`unanswered-${target.name}@example.org`);
    const id = await held;
    expect(await answered).toBe(id);
    expect(receiver.attemptsById.get(id)).toBe(2);
    expect(await bothAttemptsOf(id)).toEqual([{ status_code: null, error: 'no answer within 300 ms' }, { status_code: 204, error: null }]);
    expect(receiver.badSignatures).toBe(0);
    await server!.close();
    server = undefined;
  });

  it('stops without waiting for the answer, and sends the event again after the restart', async () => {
    // a time limit far beyond the test's: only the stop can end this attempt
    await startWithTimeLimit(3_600_000);
    receiver.holds = () => true;
    const held = receiver.next('held');
    await submitOne(`stopped-${target.name}@example.org`);
    const id = await held;
    await server!.stop();

    receiver.holds = () => false;
    const answered = receiver.next('answered');
    await server!.start();
    expect(await answered).toBe(id);
    expect(await bothAttemptsOf(id)).toEqual([{ status_code: null, error: 'the server is stopping' }, { status_code: 204, error: null }]);
    expect(receiver.badSignatures).toBe(0);
    // the attempt the stop cut short is not one of the event's eight
    const job = await until(async () => {
      const rows = await server!.app.db.selectFrom('jobs').select(['payload', 'status', 'attempts']).where('kind', '=', 'webhook').execute();
      const row = rows.find((item) => (item.payload as { event?: string }).event === id);
      return row?.status === 'done' ? row : undefined;
    }, 'the delivery job done');
    expect(job.attempts).toBe(1);
  });

  // two servers on one PostgreSQL: the attempt one server's stop cut short goes out from the other at once
  it.skipIf(target.name !== 'postgres')('hands an attempt cut short by one server\'s stop to another server on the same database, not counted', async () => {
    const database = await target.create();
    const env = { WEBHOOK_URL: url, WEBHOOK_SECRET: SECRET, WEBHOOK_TIMEOUT_MS: '3600000', JOB_RETRY_DELAY_MS: '1' };
    const first = await startTestServer({ databaseUrl: database.url, env });
    let second: TestServer | undefined;
    try {
      receiver.holds = () => true;
      const held = receiver.next('held');
      const api = await createConfirmedApplicant(first.app, `handed-over-${target.name}@example.org`);
      expect((await api.put('/api/answer', completeApplication())).status).toBe(200);
      expect((await api.post('/api/submit')).status).toBe(200);
      const id = await held; // the first server's attempt, which the receiver never answers
      second = await startTestServer({ databaseUrl: database.url, env });
      receiver.holds = () => false;
      const answered = receiver.next('answered');
      await first.stop();
      expect(await answered).toBe(id);
      const job = await until(async () => {
        const rows = await second!.app.db.selectFrom('jobs').select(['payload', 'status', 'attempts']).where('kind', '=', 'webhook').execute();
        const row = rows.find((item) => (item.payload as { event?: string }).event === id);
        return row?.status === 'done' ? row : undefined;
      }, 'the delivery job done by the second server');
      expect(job.attempts).toBe(1);
      const attempts = await second.app.db.selectFrom('webhook_attempts').select(['status_code', 'error']).where('event_id', '=', id).orderBy('id').execute();
      expect(attempts).toEqual([{ status_code: null, error: 'the server is stopping' }, { status_code: 204, error: null }]);
    } finally {
      await second?.close();
      await first.close();
      await database.drop();
    }
  });
});

describe('WEBHOOK_TIMEOUT_MS', () => {
  const env = (timeout?: string) => ({ WEBHOOK_URL: 'https://office.example.edu/hooks', WEBHOOK_SECRET: SECRET, ...(timeout === undefined ? {} : { WEBHOOK_TIMEOUT_MS: timeout }) });
  it('is 15 s unless set, and a value that is not a usable time stops the server at start with its name', () => {
    expect(loadConfig(env()).webhook?.timeoutMs).toBe(15_000);
    expect(loadConfig(env('2500')).webhook?.timeoutMs).toBe(2500);
    expect(() => loadConfig(env('soon'))).toThrow(/WEBHOOK_TIMEOUT_MS must be a whole number/);
    expect(() => loadConfig(env('5'))).toThrow(/at least 100/);
    // longer than a Node timer can wait: it would fire at once and end every attempt
    expect(() => loadConfig(env('99999999999'))).toThrow(/WEBHOOK_TIMEOUT_MS must be at most/);
  });
});

describe('WEBHOOK_URL with a user name and password', () => {
  it('stops the server at start naming the setting, without repeating the password', () => {
    const start = () => loadConfig({ WEBHOOK_URL: 'https://office:Sw0rdfish-Secret@office.example.edu/hooks', WEBHOOK_SECRET: SECRET });
    expect(start).toThrow(/WEBHOOK_URL must not carry a user name or password/);
    expect(() => loadConfig({ WEBHOOK_URL: 'https://:Sw0rdfish-Secret@office.example.edu/hooks', WEBHOOK_SECRET: SECRET })).toThrow(/WEBHOOK_URL/);
    try {
      start();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('Sw0rdfish');
    }
  });
});
