/**
 * The office API attacked: an office key is no applicant session, and a session is no office
 * key; a revoked, altered, truncated or guessed key is refused; a key anywhere but the
 * Authorization header (the address, a cookie, the body, another header) counts for nothing;
 * and a stream of wrong keys from one network is cut short with 429 while the office's own
 * key keeps working. (The generic attack tests try every office route too: attack-routes.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import apiMessages from '../../schemas/text/api-messages.json';
import { makeOfficeKey, officeKeys } from '../../src/server/file-items/office-keys.ts';
import { OFFICE_KEY_FAILURES_PER_MINUTE } from '../../src/server/plugins/office-keys.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { seedApplicant, sessionFor } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';

describe.each(databaseTargets())('attacks on the office API on $name', (target) => {
  let server: TestServer;
  let applicantId = '';
  let key = '';

  beforeAll(async () => {
    server = await startTestServerOn(target, { listen: false });
    applicantId = (await seedApplicant(server.app, { email: `office.target.${target.name}@example.org`, answers: completeApplication(), status: 'submitted' })).id;
    key = (await makeOfficeKey(server.app.db, 'registrar', 'test')).key;
  });
  afterAll(async () => {
    await server?.close();
  });

  const fileUrl = () => `/api/office/applicants/${applicantId}/file`;
  const markUrl = () => `${fileUrl()}/items/transcript`;
  const send = (method: 'GET' | 'PUT' | 'DELETE', url: string, headers: Record<string, string> = {}, body?: unknown) => server.app.inject({
    method, url, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  const expectRefused = (response: Awaited<ReturnType<typeof send>>, label: string) => {
    expect([response.statusCode, response.json()], label).toEqual([401, { message: apiMessages.office_key_invalid, code: 'OFFICE_KEY_INVALID' }]);
    expect(response.headers['www-authenticate'], label).toBe('Bearer realm="office"');
  };
  const transcriptState = async () => (await server.app.fileItems.view(applicantId)).items.find((item) => item.id === 'transcript')!.state;

  it('lets the key through, and only as an office key: it opens no applicant endpoint', async () => {
    expect((await send('GET', fileUrl(), { authorization: `Bearer ${key}` })).statusCode).toBe(200);
    for (const [method, url, body] of [['GET', '/api/profile'], ['GET', '/api/application-file'], ['PUT', '/api/answer', { first_name: 'Mallory' }], ['POST', '/api/submit']] as const) {
      const response = await server.app.inject({
        method, url, headers: { authorization: `Bearer ${key}`, 'sec-fetch-site': 'same-origin', ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { payload: JSON.stringify(body) } : {}),
      });
      expect([response.statusCode, response.json().code], `${method} ${url}`).toEqual([401, 'UNAUTHORIZED']);
    }
  });

  it('refuses an applicant\'s session on the office endpoints, as a cookie or as a bearer', async () => {
    const api = await sessionFor(server.app, applicantId);
    const session = api.cookies.get('session')!;
    expect((await api.get('/api/profile')).status).toBe(200);
    for (const headers of [
      { cookie: [...api.cookies].map(([name, value]) => `${name}=${value}`).join('; '), 'sec-fetch-site': 'same-origin' },
      { authorization: `Bearer ${session}` },
    ] as Record<string, string>[]) {
      expectRefused(await send('GET', fileUrl(), headers), `GET with ${Object.keys(headers)[0]}`);
      expectRefused(await send('PUT', markUrl(), headers, { state: 'received' }), `PUT with ${Object.keys(headers)[0]}`);
    }
    expect(await transcriptState()).toBe('missing');
  });

  it('refuses a revoked key at once, and an altered, truncated, lengthened or guessed one', async () => {
    const { key: doomed, row } = await makeOfficeKey(server.app.db, 'doomed', 'test');
    expect((await send('GET', fileUrl(), { authorization: `Bearer ${doomed}` })).statusCode).toBe(200);
    expect(await officeKeys(server.app.db).revoke(row.id.slice(0, 8), 'dean')).toMatchObject({ status: 'revoked' });
    expectRefused(await send('GET', fileUrl(), { authorization: `Bearer ${doomed}` }), 'revoked');
    expectRefused(await send('PUT', markUrl(), { authorization: `Bearer ${doomed}` }, { state: 'received' }), 'revoked write');

    const last = key.at(-1) === 'A' ? 'B' : 'A';
    for (const [label, forged] of [
      ['last character changed', `${key.slice(0, -1)}${last}`],
      ['truncated', key.slice(0, -1)],
      ['lengthened', `${key}A`],
      ['another prefix', `sk_${key.slice(3)}`],
      ['no prefix', key.slice(3)],
      ['guessed, well formed', `ok_${'A'.repeat(43)}`],
      ['the stored hash', (await server.app.db.selectFrom('office_keys').select('key_hash').where('name', '=', 'registrar').executeTakeFirstOrThrow()).key_hash],
    ] as const) {
      expectRefused(await send('GET', fileUrl(), { authorization: `Bearer ${forged}` }), label);
    }
    expect(await transcriptState()).toBe('missing');
  });

  it('counts a key only in the Authorization header as Bearer: never in the address, a cookie, the body or another header', async () => {
    const tries: [string, string, Record<string, string>, unknown?][] = [
      ['in the query as key', `${fileUrl()}?key=${key}`, {}],
      ['in the query as access_token', `${fileUrl()}?access_token=${key}`, {}],
      ['in the query as authorization', `${fileUrl()}?authorization=${encodeURIComponent(`Bearer ${key}`)}`, {}],
      ['as a cookie', fileUrl(), { cookie: `office_key=${key}; authorization=Bearer%20${key}` }],
      ['as the session cookie', fileUrl(), { cookie: `session=${key}` }],
      ['in X-Api-Key', fileUrl(), { 'x-api-key': key }],
      ['as Basic credentials', fileUrl(), { authorization: `Basic ${Buffer.from(`office:${key}`).toString('base64')}` }],
      ['bare, without a scheme', fileUrl(), { authorization: key }],
      ['as a second bearer', fileUrl(), { authorization: `Bearer ok_${'B'.repeat(43)} ${key}` }],
    ];
    for (const [label, url, headers] of tries) expectRefused(await send('GET', url, headers), label);
    expectRefused(await send('PUT', `${markUrl()}?key=${key}`, {}, { state: 'received', key, authorization: `Bearer ${key}` }), 'in the body and query');
    expect(await transcriptState()).toBe('missing');
  });

  it('answers a stream of wrong keys from one network with 429, and the office\'s own key still works', async () => {
    for (let tried = 0; tried < OFFICE_KEY_FAILURES_PER_MINUTE + 5; tried++) {
      const response = await send('GET', fileUrl(), { authorization: `Bearer ok_${String(tried).padStart(43, 'x')}` });
      if (response.statusCode === 429) {
        expect(response.json()).toMatchObject({ code: 'RATE_LIMITED' });
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
        expect(tried).toBeGreaterThanOrEqual(OFFICE_KEY_FAILURES_PER_MINUTE - 20); // earlier tests' wrong keys count too
      } else expect(response.statusCode).toBe(401);
    }
    expect((await send('GET', fileUrl(), { authorization: `Bearer ok_${'z'.repeat(43)}` })).statusCode).toBe(429);
    expect((await send('GET', fileUrl(), { authorization: `Bearer ${key}` })).statusCode).toBe(200);
  });
});
