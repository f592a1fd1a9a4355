/**
 * The office API and the office's commands: an office key reads an applicant's file by id or
 * e-mail, marks items received, waived or back to missing (recorded as office:<key name>),
 * completes the file once (one mail, one application.file_complete event), withdraws a
 * counselor request; unknown applicants and items are 404s with the contract's codes; each
 * key has its own rate limit. The commands (office-key, file-items) run as processes of their
 * own beside the server: on PostgreSQL they connect themselves, on the embedded database they
 * hand their work to the running server.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fileItems from '../../schemas/file-items.json';
import apiMessages from '../../schemas/text/api-messages.json';
import { makeOfficeKey } from '../../src/server/file-items/office-keys.ts';
import type { OfficeApplicationFileReply, OfficeMarkFileItemReply } from '../../src/shared/generated/api-types.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { seedApplicant } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';
import { builtCommand } from '../helpers/built-server.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const completeSubject = fileItems.texts.complete_subject.replace('{short_name}', 'CHU');
const WEBHOOKS = { WEBHOOK_URL: 'http://127.0.0.1:9/hooks', WEBHOOK_SECRET: `whsec_${Buffer.alloc(24, 5).toString('base64')}` };
const PER_KEY = 40;

describe.each(databaseTargets())('the office API on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    // a receiver nobody answers: the events are recorded and queued (their delivery: office-webhooks.test.ts)
    server = await startTestServerOn(target, { env: { ...WEBHOOKS, OFFICE_RATE_LIMIT_PER_KEY: String(PER_KEY) } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const office = (key: string) => async <T = Record<string, unknown>>(method: 'GET' | 'PUT' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await server.app.inject({
      method, url,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: response.statusCode, body: response.json() as T, headers: response.headers };
  };
  const counts = async (applicantId: string, email: string) => {
    const events = await sql<{ type: string; n: number }>`select type, count(*)::int as n from webhook_events where applicant_id = ${applicantId} group by type`.execute(server.app.db);
    // the server sends its queued mail (to the outbox, without SMTP): once nothing is pending, the outbox has them all
    await until(async () => (await sql<{ n: number }>`select count(*)::int as n from mails where recipient = ${email} and subject is not null`.execute(server.app.db)).rows[0]!.n === 0 || undefined, 'the mail sent');
    const mails = await sql<{ n: number }>`select count(*)::int as n from outbox where recipient = ${email} and subject = ${completeSubject}`.execute(server.app.db);
    return { events: Object.fromEntries(events.rows.map((row) => [row.type, row.n])), mails: mails.rows[0]!.n };
  };

  it('reads a file by id and by e-mail, marks items as the key\'s name, corrects a mistake, and completes the file once', async () => {
    const { key } = await makeOfficeKey(server.app.db, 'Registrar SIS', 'test');
    const call = office(key);
    const email = `office.${target.name}@example.org`;
    const { id } = await seedApplicant(server.app, { email, answers: { ...completeApplication(), test_optional: 'Y' }, status: 'submitted' });
    const path = `/api/office/applicants/${id}/file`;

    const first = await call<OfficeApplicationFileReply>('GET', path);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ applicant_id: id, email, submitted: true, complete_at: null, decision_due: null });
    expect(first.body.items.map((item) => [item.id, item.required, item.state, item.changed_by])).toEqual([
      ['transcript', true, 'missing', null], ['test-scores', true, 'missing', null], ['counselor-recommendation', false, 'missing', null],
    ]);
    expect((await call('GET', `/api/office/applicants?email=${encodeURIComponent(email.toUpperCase())}`)).body).toEqual(first.body);

    // the office's systems call from wherever they run: no browser's same-origin rule applies to a key
    const received = await call<OfficeMarkFileItemReply>('PUT', `${path}/items/transcript`, { state: 'received', note: ' Arrived by post ' }, { 'sec-fetch-site': 'cross-site', origin: 'https://sis.example.edu' });
    expect(received.status).toBe(200);
    expect(received.body.changed).toBe(true);
    expect(received.body.file.items[0]).toMatchObject({ id: 'transcript', state: 'received', changed_by: 'office:Registrar SIS', note: 'Arrived by post', changed_at: expect.any(String) });
    expect((await call<OfficeMarkFileItemReply>('PUT', `${path}/items/transcript`, { state: 'received' })).body.changed).toBe(false);

    const waived = await call<OfficeMarkFileItemReply>('PUT', `${path}/items/test-scores`, { state: 'waived', note: null });
    expect(waived.body.file.complete_at).toEqual(expect.any(String));
    expect(waived.body.file.decision_due).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // a mistake taken back: the file is no longer complete; marked again, it is, without a second mail or event
    const corrected = await call<OfficeMarkFileItemReply>('PUT', `${path}/items/transcript`, { state: 'missing' });
    expect(corrected.body.changed).toBe(true);
    expect(corrected.body.file.items[0]).toMatchObject({ state: 'missing', changed_by: null, note: null, changed_at: null });
    expect(corrected.body.file.complete_at).toBeNull();
    expect((await call<OfficeMarkFileItemReply>('PUT', `${path}/items/transcript`, { state: 'received' })).body.file.complete_at).toEqual(expect.any(String));
    expect(await counts(id, email)).toEqual({
      events: { 'application.submitted': 1, 'application.file_item_changed': 4, 'application.file_complete': 1 }, mails: 1,
    });
    const changes = await server.app.db.selectFrom('webhook_events').select('body').where('applicant_id', '=', id).where('type', '=', 'application.file_item_changed').execute();
    expect(changes.map((row) => JSON.parse(row.body).data.changed_by)).toEqual(Array(4).fill('office:Registrar SIS'));

    // its use is recorded, once a minute at most: the many requests above wrote it once
    const usedAt = async () => (await server.app.db.selectFrom('office_keys').select(['last_used_at']).where('name', '=', 'Registrar SIS').executeTakeFirstOrThrow()).last_used_at;
    const used = await usedAt();
    expect(used).toBeInstanceOf(Date);
    expect((await call('GET', path)).status).toBe(200);
    expect(await usedAt()).toEqual(used);
  });

  it('answers an unknown applicant, address or item with a 404 and the contract\'s code, and refuses states that are not the office\'s', async () => {
    const call = office((await makeOfficeKey(server.app.db, 'lookups', 'test')).key);
    const { id } = await seedApplicant(server.app, { email: `office.unknowns.${target.name}@example.org` });
    const nobody = '6f1c1c1e-4b1a-4c55-9a55-0d6a2a000000';
    expect((await call('GET', `/api/office/applicants/${nobody}/file`)).body).toEqual({ message: apiMessages.applicant_unknown, code: 'NOT_FOUND' });
    expect((await call('PUT', `/api/office/applicants/${nobody}/file/items/transcript`, { state: 'received' })).body).toMatchObject({ code: 'NOT_FOUND' });
    expect((await call('GET', '/api/office/applicants?email=nobody%40example.org')).status).toBe(404);
    expect((await call('PUT', `/api/office/applicants/${id}/file/items/diploma`, { state: 'received' })).body).toEqual({ message: apiMessages.file_item_unknown, code: 'UNKNOWN_ITEM' });
    expect((await call('DELETE', `/api/office/applicants/${id}/file/items/diploma/counselor-request`)).body).toMatchObject({ code: 'UNKNOWN_ITEM' });
    for (const body of [{ state: 'requested' }, { state: 'received', note: 'x'.repeat(501) }, { state: 'received', changed_by: 'applicant' }]) {
      expect((await call('PUT', `/api/office/applicants/${id}/file/items/transcript`, body)).body, JSON.stringify(body)).toMatchObject({ code: 'INVALID_REQUEST' });
    }
    expect((await call('GET', '/api/office/applicants/not-an-id/file')).body).toMatchObject({ code: 'INVALID_REQUEST' });
    const asText = await server.app.inject({
      method: 'PUT', url: `/api/office/applicants/${id}/file/items/transcript`, payload: 'state=received',
      headers: { authorization: `Bearer ${(await makeOfficeKey(server.app.db, 'form poster', 'test')).key}`, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(asText.json()).toMatchObject({ code: 'JSON_REQUIRED' });
    expect((await server.app.fileItems.view(id)).items.every((item) => item.state === 'missing')).toBe(true);
  });

  it('withdraws the open counselor requests for an item, and puts an item only requested back to missing', async () => {
    const call = office((await makeOfficeKey(server.app.db, 'desk', 'test')).key);
    const { id } = await seedApplicant(server.app, { email: `office.withdraw.${target.name}@example.org` });
    const insert = (createdAt: Date, expiresAt: Date) => server.app.db.insertInto('counselor_requests')
      .values({ applicant_id: id, item_id: 'transcript', email: 'counselor@school.example.org', created_at: createdAt, expires_at: expiresAt }).returning('id').executeTakeFirstOrThrow();
    const older = await insert(new Date(Date.now() - 3_600_000), new Date(Date.now() + 86_400_000));
    const latest = await insert(new Date(), new Date(Date.now() + 86_400_000));
    await server.app.fileItems.mark(id, 'transcript', { state: 'requested', by: 'applicant' });

    const withdrawn = await call<OfficeApplicationFileReply>('DELETE', `/api/office/applicants/${id}/file/items/transcript/counselor-request`);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.items[0]).toMatchObject({ id: 'transcript', state: 'missing' });
    const rows = await server.app.db.selectFrom('counselor_requests').select(['id', 'withdrawn_at', 'withdrawn_by']).where('applicant_id', '=', id).execute();
    // every open request of the item: its links all stop working (a new request withdraws the
    // one before, so there is one unless rows were written otherwise, as here)
    for (const request of [latest, older]) {
      expect(rows.find((row) => row.id === request.id)).toMatchObject({ withdrawn_at: expect.any(Date), withdrawn_by: 'office:desk' });
    }
    expect((await call('DELETE', `/api/office/applicants/${id}/file/items/transcript/counselor-request`)).body).toEqual({ message: apiMessages.no_counselor_request, code: 'NO_REQUEST' });
    // an item already received stays received when its request is withdrawn
    await insert(new Date(), new Date(Date.now() + 86_400_000));
    await server.app.fileItems.mark(id, 'transcript', { state: 'received', by: 'office:desk' });
    expect((await call<OfficeApplicationFileReply>('DELETE', `/api/office/applicants/${id}/file/items/transcript/counselor-request`)).body.items[0]).toMatchObject({ state: 'received' });
  });

  it('describes the office endpoints in the OpenAPI document: bearer office key, 401 OFFICE_KEY_INVALID, no cross-site refusal', async () => {
    type Operation = { security: object[]; responses: Record<string, { content?: Record<string, { schema: { properties?: { code?: { enum?: string[] } } } }> }> };
    const document = (await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };
    const mark = document.paths['/api/office/applicants/{applicantId}/file/items/{itemId}']!.put!;
    expect(mark.security).toEqual([{ officeKey: [] }]);
    expect(document.components.securitySchemes.officeKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const codes = (status: string) => mark.responses[status]?.content?.['application/json']?.schema.properties?.code?.enum;
    expect(codes('401')).toEqual(['OFFICE_KEY_INVALID']);
    expect(codes('404')).toEqual(['NOT_FOUND', 'UNKNOWN_ITEM']);
    expect(codes('429')).toEqual(expect.arrayContaining(['RATE_LIMITED']));
    expect(mark.responses['403']).toBeUndefined();
    for (const path of ['/api/office/applicants', '/api/office/applicants/{applicantId}/file']) expect(document.paths[path]!.get!.security).toEqual([{ officeKey: [] }]);
  });

  it('limits each key on its own: past the limit a key gets 429 with Retry-After, another key still works', async () => {
    const busy = office((await makeOfficeKey(server.app.db, 'busy', 'test')).key);
    const calm = office((await makeOfficeKey(server.app.db, 'calm', 'test')).key);
    const { id } = await seedApplicant(server.app, { email: `office.limit.${target.name}@example.org` });
    for (let sent = 0; sent < PER_KEY; sent++) expect((await busy('GET', `/api/office/applicants/${id}/file`)).status).toBe(200);
    const refused = await busy('GET', `/api/office/applicants/${id}/file`);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await calm('GET', `/api/office/applicants/${id}/file`)).status).toBe(200);
  });

  it('makes, lists and revokes keys, and shows, marks and imports items, by commands beside the running server', async () => {
    const env = target.name === 'postgres'
      ? { DATABASE_URL: server.config.databaseUrl!, PUBLIC_URL: server.config.publicUrl, ...WEBHOOKS }
      : { DATA_DIR: server.config.dataDir, DATABASE_URL: '' };
    const run = async (script: string, ...args: string[]) => {
      try {
        const { stdout, stderr } = await promisify(execFile)(process.execPath, builtCommand(script, ...args), { cwd: ROOT, env: { ...process.env, ...env, LOG_LEVEL: 'warn' } });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const failed = error as { code: number; stdout: string; stderr: string };
        return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
      }
    };

    const made = await run('office-key', 'create', 'Slate nightly', '--by', 'J. Rivera');
    expect(made.code).toBe(0);
    const key = made.stdout.split('\n')[0]!;
    expect(key).toMatch(/^ok_[A-Za-z0-9_-]{43}$/);
    const keyId = /office key ([0-9a-f-]{36})/.exec(made.stdout)![1]!;
    const stored = await server.app.db.selectFrom('office_keys').selectAll().where('id', '=', keyId).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ name: 'Slate nightly', made_by: 'J. Rivera', revoked_at: null });
    expect(stored.key_hash).not.toContain(key.slice(3, 20)); // only its hash is kept
    expect((await run('office-key', '--list')).stdout).toContain(`${keyId}  Slate nightly  made`);
    const call = office(key);

    const email = `office.command.${target.name}@example.org`;
    const { id } = await seedApplicant(server.app, { email, answers: { ...completeApplication(), test_optional: 'Y' }, status: 'submitted' });
    const other = await seedApplicant(server.app, { email: `office.command.other.${target.name}@example.org`, answers: completeApplication(), status: 'submitted' });
    expect((await call('GET', `/api/office/applicants/${id}/file`)).status).toBe(200);

    const marked = await run('file-items', 'mark', email.toUpperCase(), 'transcript', 'received', '--note', 'by post', '--by', 'desk 2');
    expect(marked.code).toBe(0);
    expect(marked.stdout).toMatch(/transcript\s+required\s+received\s+\S+ by command:desk 2 {2}"by post"/);
    expect((await run('file-items', 'mark', email, 'diploma', 'received')).stderr).toContain('unknown item "diploma"');

    // a batch with a wrong row writes nothing, and says which lines are wrong
    const dir = server.config.dataDir;
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, `email,item,state,note\n${email},test-scores,waived,"Test-optional, after all"\nnobody@example.org,transcript,received,\n${email},transcript,lost,\n`);
    const refused = await run('file-items', 'import', bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('line 3: no applicant with the e-mail address nobody@example.org');
    expect(refused.stderr).toContain('line 4: unknown state "lost"');
    expect(refused.stderr).toContain('2 of 3 rows refused: nothing was written.');
    const good = join(dir, 'good.csv');
    writeFileSync(good, `\uFEFFemail,item,state,note\r\n${email},test-scores,waived,"Test-optional, after all"\r\n${other.email},transcript,received,\r\n`);
    const dry = await run('file-items', 'import', good, '--dry-run');
    expect(dry.stdout).toContain('2 rows checked, all good; nothing written (--dry-run).');
    expect((await server.app.fileItems.view(id)).complete_at).toBeNull();
    const imported = await run('file-items', 'import', good, '--by', 'batch');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('2 rows: 2 changed, 0 already so, 0 refused. Files complete after a change: 2.');
    const file = await call<OfficeApplicationFileReply>('GET', `/api/office/applicants/${id}/file`);
    expect(file.body.complete_at).toEqual(expect.any(String));
    expect(file.body.items[1]).toMatchObject({ id: 'test-scores', state: 'waived', changed_by: 'command:batch', note: 'Test-optional, after all' });
    expect((await counts(id, email)).mails).toBe(1);
    expect((await run('file-items', 'show', email)).stdout).toContain(`file complete`);

    const revoked = await run('office-key', '--revoke', keyId.slice(0, 8), '--by', 'dean');
    expect(revoked.stdout).toContain(`Revoked: ${keyId} (Slate nightly)`);
    expect((await call('GET', `/api/office/applicants/${id}/file`)).body).toEqual({ message: apiMessages.office_key_invalid, code: 'OFFICE_KEY_INVALID' });
    expect((await run('office-key', '--list')).stdout).not.toContain(keyId);
    expect((await run('office-key', '--list', '--all')).stdout).toMatch(new RegExp(`${keyId}  Slate nightly .* revoked \\S+ by dean`));
  });
});
