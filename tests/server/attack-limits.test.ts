import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import documentsText from '../../schemas/documents.json';
import apiMessages from '../../schemas/text/api-messages.json';
import { insertPrefill, markPrefillUsed } from '../../src/server/db/repositories/prefill-repository.ts';
import { insertSession } from '../../src/server/db/repositories/session-repository.ts';
import { documentKeyOf, MAX_OPEN_UPLOADS } from '../../src/server/documents/document-service.ts';
import { SWEEP_EVERY_MS, sweep } from '../../src/server/jobs/sweep.ts';
import { randomToken, sha256 } from '../../src/server/lib/secrets.ts';
import { form } from '../../src/shared/form/form-model-data.ts';
import { fillTemplate } from '../../src/shared/text/fill-template.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { STRONG_PASSWORD, type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { makePdf } from '../../support/document-fixtures.ts';
import { HttpSession, startProcessServer, type ProcessServer } from '../helpers/process-server.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServer, startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { conversionResult, postFile, uploadThroughApi } from '../../support/uploads.ts';

/**
 * Limits an applicant with a free account could otherwise push past, and what is left
 * behind: a storage quota and a cap on open upload slots; the periodic sweep (uploads
 * never registered, superseded PDF copies, finished jobs, spent counters, tokens and
 * sessions); add-another, tabs and the validation snapshot locked after submission like
 * answers; no code or reset link in the log; DATA_DIR for the server's user only; /healthz
 * telling the public only whether it is up.
 */
const MiB = 1024 * 1024;
const QUOTA = 12 * MiB;
const HEALTH_TOKEN = 'health-token-for-the-test-0123456789';
const messages = documentsText.messages;
const MINUTE = 60_000;
const ago = (ms: number) => new Date(Date.now() - ms);

interface Presigned { url: string; fields: Record<string, string> }

/** Every folder and file below root with its permission bits, as "0700 path". */
function modesBelow(root: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    found.push(`${(statSync(path).mode & 0o777).toString(8).padStart(4, '0')} ${entry.isDirectory() ? 'dir ' : 'file'} ${path.slice(root.length)}`);
  }
  return found;
}

describe.each(databaseTargets())('limits and sweeping on $name', (target) => {
  let server: TestServer;
  let counter = 0;
  const applicant = () => createConfirmedApplicant(server.app, `limits${++counter}.${target.name}@example.org`);
  const applicantId = async (api: ApiSession) => (await server.app.db.selectFrom('sessions').select('applicant_id').where('id_hash', '=', sha256(api.cookies.get('session')!)).executeTakeFirstOrThrow()).applicant_id;
  const presign = (api: ApiSession, answerKey = 'supporting_document') => api.post<Presigned & { message?: string; code?: string }>('/api/presigned-url', { answer_key: answerKey });
  const slotsOf = async (id: string) => server.app.db.selectFrom('upload_slots').select(['key', 'expires_at']).where('applicant_id', '=', id).execute();
  const storedUnder = async (prefix: string) => {
    const keys: string[] = [];
    for await (const object of server.app.storage.list(prefix)) keys.push(object.key);
    return keys.sort();
  };
  const objectPath = (key: string) => join(server.config.dataDir, 'objects', key);

  beforeAll(async () => {
    server = await startTestServerOn(target, { env: { UPLOAD_QUOTA_BYTES: String(QUOTA), HEALTH_TOKEN } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('caps open upload slots, then refuses a slot past the storage quota with its message, and stores nothing more', async () => {
    const api = await applicant();
    const id = await applicantId(api);
    // one upload registered and converted: its file and its PDF count
    await uploadThroughApi(server.app, api, 'hs_transcript', 'transcript.pdf', await makePdf());
    expect((await conversionResult(api, 'hs_transcript')).status).toBe('COMPLETED');

    const open: Presigned[] = [];
    for (let slot = 0; slot < MAX_OPEN_UPLOADS; slot++) {
      const answer = await presign(api);
      expect(answer.status, `slot ${slot + 1}`).toBe(200);
      open.push(answer.body);
    }
    const tooMany = await presign(api);
    expect(tooMany.status).toBe(429);
    expect(tooMany.body).toMatchObject({ message: messages.too_many_uploads, code: 'TOO_MANY_UPLOADS' });
    expect(tooMany.headers['retry-after']).toBeDefined();

    // their POSTs expire, but until the sweep removes them each still counts as the most it may have received
    await server.app.db.updateTable('upload_slots').set({ expires_at: ago(MINUTE) }).where('applicant_id', '=', id).execute();
    expect((await presign(api)).status).toBe(200); // 10 MiB reserved + a few KB stored + 1 MiB: under 12 MiB
    const overQuota = await presign(api);
    expect(overQuota.status).toBe(413);
    expect(overQuota.body).toMatchObject({ message: fillTemplate(messages.quota_exceeded, { megabytes: QUOTA / MiB }), code: 'UPLOAD_QUOTA' });
    expect(overQuota.body.message).not.toMatch(/[{}]/);

    // nothing more stored: no slot for the refused request, the objects are the registered upload and its PDF
    expect(await slotsOf(id)).toHaveLength(MAX_OPEN_UPLOADS + 2); // the registered upload's slot is spent, kept for the sweep
    expect(await storedUnder(`documents/${id}/`)).toHaveLength(1);
    expect(await storedUnder(`converted/${id}/`)).toHaveLength(1);
    expect(open).toHaveLength(MAX_OPEN_UPLOADS);
  });

  it('refuses to store into a slot no longer handed out, and counts what arrived', async () => {
    const api = await applicant();
    const id = await applicantId(api);
    const first = (await presign(api)).body;
    const pdf = await makePdf();
    expect((await postFile(server.app, first.fields, 'a.pdf', pdf)).statusCode).toBe(204);
    const slot = await server.app.db.selectFrom('upload_slots').select(['stored_bytes', 'reserved_bytes']).where('key', '=', first.fields.key!).executeTakeFirstOrThrow();
    expect(slot).toEqual({ stored_bytes: pdf.length, reserved_bytes: documentsText.max_bytes });

    const second = (await presign(api)).body;
    await server.app.db.deleteFrom('upload_slots').where('key', '=', second.fields.key!).execute();
    const refused = await postFile(server.app, second.fields, 'b.pdf', pdf);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: messages.upload_refused, code: 'UPLOAD_UNKNOWN' });
    expect(await storedUnder(`uploads/${id}/`)).toEqual([first.fields.key]);

    // registered: the file moves to the document's own key, which the document row counts; the
    // slot is spent, so a second POST with the same fields cannot swap the file being converted
    expect((await api.post('/api/pdf/document-answer/supporting_document', { file_key: first.fields.key, file_name: 'a.pdf' })).status).toBe(200);
    const spent = await server.app.db.selectFrom('upload_slots').select('spent_at').where('key', '=', first.fields.key!).executeTakeFirstOrThrow();
    expect(spent.spent_at).toBeInstanceOf(Date);
    const swap = await postFile(server.app, first.fields, 'a.pdf', await makePdf(['Swapped in after the check', 'two', 'three']));
    expect(swap.statusCode).toBe(403);
    expect(await storedUnder(`uploads/${id}/`)).toEqual([]);
    expect(await storedUnder(`documents/${id}/`)).toEqual([documentKeyOf(first.fields.key!)]);
    expect((await conversionResult(api, 'supporting_document')).status).toBe('COMPLETED');
    expect(Buffer.compare(await server.app.storage.get(documentKeyOf(first.fields.key!)), pdf)).toBe(0);
  });

  it('sweeps, as one job of the queue, what nothing else removes, and keeps what is still in use', async () => {
    const { db, storage } = server.app;
    const api = await applicant();
    const id = await applicantId(api);

    // uploads never registered: one past its window, one fresh
    const stale = (await presign(api)).body.fields;
    const fresh = (await presign(api)).body.fields;
    expect((await postFile(server.app, stale, 'old.pdf', await makePdf())).statusCode).toBe(204);
    expect((await postFile(server.app, fresh, 'new.pdf', await makePdf())).statusCode).toBe(204);
    await db.updateTable('upload_slots').set({ expires_at: ago(11 * MINUTE) }).where('key', '=', stale.key!).execute();

    // PDF copies: the current one, one superseded an hour ago, one just written (a job between storing and recording it)
    const current = `pdfs/${id}/current.pdf`;
    const superseded = `pdfs/${id}/superseded.pdf`;
    const justWritten = `pdfs/${id}/just-written.pdf`;
    for (const key of [current, superseded, justWritten]) await storage.put(key, await makePdf(), 'application/pdf');
    await db.insertInto('application_pdfs').values({ applicant_id: id, fingerprint: 'f', status: 'COMPLETED', pdf_key: current, message: null, updated_at: new Date() }).execute();
    const hourAgo = ago(60 * MINUTE);
    for (const key of [current, superseded]) utimesSync(objectPath(key), hourAgo, hourAgo);

    // finished jobs: two a day old, one recent; a queued one in a lane nobody polls
    const job = (status: 'done' | 'failed' | 'queued', updatedAt: Date) => ({ kind: 'test_kind', lane: 'test_lane', payload: '{}', status, updated_at: updatedAt });
    const jobs = await db.insertInto('jobs').values([job('done', ago(25 * 60 * MINUTE)), job('failed', ago(25 * 60 * MINUTE)), job('done', ago(MINUTE)), job('queued', ago(25 * 60 * MINUTE))])
      .returning('id').execute();
    const [oldDone, oldFailed, recentDone, queued] = jobs.map((row) => String(row.id));

    // per-account counters: one whose window ended long ago, one running
    await db.insertInto('rate_limits').values([
      { key: `signup:spent.${target.name}@example.org`, window_started_at: ago(2 * 60 * MINUTE), hits: 3 },
      { key: `signup:running.${target.name}@example.org`, window_started_at: new Date(), hits: 1 },
    ]).execute();

    // prefill tokens: used, expired, live
    const [used, expired, live] = [randomToken(), randomToken(), randomToken()];
    await insertPrefill(db, sha256(used), { first_name: 'Used' }, new Date(Date.now() + 86_400_000));
    await markPrefillUsed(db, sha256(used));
    await insertPrefill(db, sha256(expired), { first_name: 'Expired' }, ago(MINUTE));
    await insertPrefill(db, sha256(live), { first_name: 'Live' }, new Date(Date.now() + 86_400_000));
    expect((await api.get(`/public/tmp?token=${used}`)).status).toBe(404); // used: answers no more

    // sessions: past the absolute limit, idle too long, and the applicant's live one
    await insertSession(db, sha256('ended-by-limit'), id, ago(MINUTE));
    await insertSession(db, sha256('ended-by-idleness'), id, new Date(Date.now() + 60 * MINUTE));
    await db.updateTable('sessions').set({ last_seen_at: ago(server.app.sessions.idleMs + MINUTE) }).where('id_hash', '=', sha256('ended-by-idleness')).execute();

    // old mail in the outbox
    await db.insertInto('outbox').values({ recipient: 'old@example.org', subject: 'Old', body: 'code 123456', created_at: ago(25 * 60 * MINUTE) }).execute();

    // one sweep per time slot, however many servers queue it
    const slot = Date.now();
    const queuedId = await server.app.jobs.enqueueCurrentSlot('sweep', SWEEP_EVERY_MS, slot);
    expect(queuedId).toBeDefined();
    expect(await server.app.jobs.enqueueCurrentSlot('sweep', SWEEP_EVERY_MS, slot)).toBeUndefined();
    await expect.poll(async () => (await db.selectFrom('jobs').select('status').where('id', '=', queuedId!).executeTakeFirst())?.status, { timeout: 15_000, interval: 100 }).toBe('done');

    expect(await storage.exists(stale.key!)).toBe(false);
    expect(await storage.exists(fresh.key!)).toBe(true);
    expect((await slotsOf(id)).map((row) => row.key)).toEqual([fresh.key]);
    expect(await storedUnder(`pdfs/${id}/`)).toEqual([current, justWritten].sort());
    const jobIds = (await db.selectFrom('jobs').select('id').where('kind', '=', 'test_kind').execute()).map((row) => String(row.id));
    expect(jobIds.sort()).toEqual([recentDone, queued].sort());
    expect(jobIds).not.toContain(oldDone);
    expect(jobIds).not.toContain(oldFailed);
    const counters = (await db.selectFrom('rate_limits').select('key').where('key', 'in', [`signup:spent.${target.name}@example.org`, `signup:running.${target.name}@example.org`]).execute()).map((row) => row.key);
    expect(counters).toEqual([`signup:running.${target.name}@example.org`]);
    const tokens = (await db.selectFrom('prefill_tokens').select('token_hash').execute()).map((row) => row.token_hash);
    expect(tokens).toEqual([sha256(live)]);
    expect((await api.get(`/public/tmp?token=${live}`)).status).toBe(200);
    const sessions = (await db.selectFrom('sessions').select('id_hash').where('applicant_id', '=', id).execute()).map((row) => row.id_hash);
    expect(sessions).toEqual([sha256(api.cookies.get('session')!)]);
    expect((await api.get('/api/profile')).status).toBe(200);
    expect(await db.selectFrom('outbox').select('recipient').where('recipient', '=', 'old@example.org').execute()).toEqual([]);

    // a second sweep, called directly, finds nothing more of this to do
    const again = await sweep({ db, storage, log: server.app.log, sessionIdleMs: server.app.sessions.idleMs });
    expect(again).toMatchObject({ pdfs: 0, jobs: 0, rateLimits: 0, prefills: 0, sessions: 0, outbox: 0 });
    expect(await storage.exists(fresh.key!)).toBe(true);
  });

  it('refuses add-another counts, tab choices and the validation snapshot after submission, as an answer save is', async () => {
    const api = await applicant();
    const repeater = form.pages['education-ug'].repeaters[0]!;
    const tabs = form.pages['education-ug'].tabs[0]!;
    expect((await api.put('/api/add-another', { button_id: repeater.button_id, num_components: 2 })).status).toBe(200);
    expect((await api.put('/api/tabs', { tab_id: tabs.tab_id, chosen_tab: tabs.tabs[0]!.id })).status).toBe(200);
    expect((await api.post('/api/validations', { first_name: ['Please enter your first name.'] })).status).toBe(200);
    expect((await api.put('/api/answer', completeApplication())).status).toBe(200);
    expect((await api.post('/api/submit')).status).toBe(200);

    const answer = await api.put('/api/answer', { first_name: 'Changed' });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: apiMessages.submitted, code: 'SUBMITTED' });
    for (const refused of [
      await api.put('/api/add-another', { button_id: repeater.button_id, num_components: 3 }),
      await api.put('/api/tabs', { tab_id: tabs.tab_id, chosen_tab: tabs.tabs[1]!.id }),
      await api.post('/api/validations', { first_name: ['Changed after submission'] }),
    ]) {
      expect(refused.status).toBe(answer.status);
      expect(refused.body).toEqual(answer.body);
    }
    expect((await api.get('/api/add-another')).body).toEqual({ [repeater.button_id]: 2 });
    expect((await api.get('/api/tabs')).body).toEqual({ [tabs.tab_id]: tabs.tabs[0]!.id });
    const snapshot = await server.app.db.selectFrom('validation_snapshots').select('errors').where('applicant_id', '=', await applicantId(api)).executeTakeFirstOrThrow();
    expect(snapshot.errors).toEqual({ first_name: ['Please enter your first name.'] });
  });

  it('keeps DATA_DIR to the server\'s user: folders 0700, files 0600', async () => {
    const api = await applicant();
    await uploadThroughApi(server.app, api, 'activ_resume', 'resume.pdf', await makePdf());
    expect((await conversionResult(api, 'activ_resume')).status).toBe('COMPLETED');
    const root = server.config.dataDir;
    expect(statSync(root).mode & 0o777).toBe(0o700);
    const modes = modesBelow(root);
    expect(modes.some((line) => line.includes('/objects/converted/'))).toBe(true);
    if (target.name === 'pglite') expect(modes.some((line) => line.includes('/pgdata/'))).toBe(true);
    expect(modes.filter((line) => !(line.startsWith('0700 dir ') || line.startsWith('0600 file ')))).toEqual([]);
  });

  it('tells a request from elsewhere only whether it is healthy; details to this machine or with the token', async () => {
    const remote = { method: 'GET' as const, url: '/healthz', remoteAddress: '203.0.113.9' };
    const outside = await server.app.inject(remote);
    expect(outside.statusCode).toBe(200);
    expect(outside.json()).toEqual({ status: 'ok' });
    expect((await server.app.inject({ ...remote, headers: { 'x-health-token': 'wrong' } })).json()).toEqual({ status: 'ok' });
    const withToken = await server.app.inject({ ...remote, headers: { 'x-health-token': HEALTH_TOKEN } });
    expect(withToken.json()).toMatchObject({ status: 'ok', database: { kind: target.name, ok: true } });
    const local = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(local.json()).toMatchObject({ status: 'ok', database: { kind: target.name, ok: true }, converters: expect.any(Object) });
    // over real HTTP from 127.0.0.1 too
    const overHttp = await fetch(`${server.url.replace('localhost', '127.0.0.1')}/healthz`);
    expect(await overHttp.json()).toMatchObject({ database: { kind: target.name } });
  });
});

describe.each(databaseTargets())('the log on $name', (target) => {
  let server: ProcessServer | undefined;
  let drop: (() => Promise<void>) | undefined;

  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  it('holds no confirmation code and no reset link, however much it logs', async () => {
    const database = await target.create();
    drop = database.drop;
    // the server as production runs it, logging everything, without SMTP
    server = await startProcessServer({ databaseUrl: database.url, env: { LOG_LEVEL: 'trace' } });
    const email = `logged.${target.name}@example.org`;
    const http = new HttpSession(() => server!.url);
    expect((await http.post('/public/signup', { username: email, password: STRONG_PASSWORD })).status).toBe(200);
    const code = await server.confirmationCode(email);
    expect((await http.post('/public/confirm', { username: email, code })).status).toBe(200);
    expect((await http.post('/public/forgot-password', { username: email })).status).toBe(200);
    let link = '';
    await expect.poll(async () => {
      link = /https?:\/\/\S+\/reset\?\S+/.exec((await server!.mails(email)).at(-1)?.text ?? '')?.[0] ?? '';
      return link;
    }, { timeout: 10_000, interval: 100 }).not.toBe('');
    const token = new URL(link).searchParams.get('id')!;
    expect(token.length).toBeGreaterThan(20);
    // the link opened, as the applicant's browser does: the address reaches the request log
    await fetch(`${server.url}${new URL(link).pathname}${new URL(link).search}`);
    await fetch(`${server.url}/public/tmp?token=${randomToken()}`);
    // the server logs in order: once a later request's line is out, the lines above are too
    const marker = randomToken();
    await fetch(`${server.url}/healthz?after=${marker}`);
    await expect.poll(() => server!.output).toContain(marker);

    const output = server.output;
    expect(output).toContain('/reset?');
    expect(output).toContain('[redacted]');
    expect(output).toMatch(/outbox/);
    expect(output).not.toMatch(new RegExp(`\\b${code}\\b`));
    expect(output).not.toContain(token);
    expect(output).not.toContain(encodeURIComponent(token));
  });
});

describe('sweeping on S3 storage (s3rver)', () => {
  const BUCKET = 'sweep-bucket';
  const folder = mkdtempSync(join(tmpdir(), 's3rver-sweep-'));
  let s3rver: S3rver;
  let server: TestServer;

  beforeAll(async () => {
    s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: folder, configureBuckets: [{ name: BUCKET, configs: [] }] });
    const { port } = await s3rver.run();
    server = await startTestServer({
      listen: false,
      env: { S3_BUCKET: BUCKET, S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await s3rver?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('lists by prefix, and removes an unregistered upload and a superseded PDF copy, not the current one', async () => {
    const { db, storage } = server.app;
    const api = await createConfirmedApplicant(server.app, 'sweep.s3@example.org');
    const id = (await db.selectFrom('applicants').select('id').where('email', '=', 'sweep.s3@example.org').executeTakeFirstOrThrow()).id;
    const presigned = (await api.post<Presigned>('/api/presigned-url', { answer_key: 'supporting_document' })).body;
    const body = new FormData();
    for (const [name, value] of Object.entries(presigned.fields)) body.append(name, value);
    body.append('file', new Blob([new Uint8Array(await makePdf())]), 'a.pdf');
    expect((await fetch(presigned.url, { method: 'POST', body })).status).toBe(204);
    const current = `pdfs/${id}/current.pdf`;
    const superseded = `pdfs/${id}/superseded.pdf`;
    for (const key of [current, superseded]) await storage.put(key, await makePdf(), 'application/pdf');
    await db.insertInto('application_pdfs').values({ applicant_id: id, fingerprint: 'f', status: 'COMPLETED', pdf_key: current, message: null, updated_at: new Date() }).execute();

    const listed: string[] = [];
    for await (const object of storage.list(`pdfs/${id}/`)) {
      expect(object.size).toBeGreaterThan(0);
      expect(object.lastModified.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      listed.push(object.key);
    }
    expect(listed.sort()).toEqual([current, superseded]);

    // an hour on, as the sweep will see it then (s3rver cannot backdate an object)
    const counts = await sweep({ db, storage, log: server.app.log, sessionIdleMs: server.app.sessions.idleMs }, new Date(Date.now() + 60 * MINUTE));
    expect(counts).toMatchObject({ uploads: 1, pdfs: 1 });
    expect(await storage.exists(presigned.fields.key!)).toBe(false);
    expect(await storage.exists(superseded)).toBe(false);
    expect(await storage.exists(current)).toBe(true);
  });
});
