import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import documentsText from '../../schemas/documents.json';
import apiMessages from '../../schemas/text/api-messages.json';
import errors from '../../schemas/text/errors.json';
import { signServiceToken } from '../../src/server/pdf/service-token.ts';
import { ApiSession, STRONG_PASSWORD } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { makePdf } from '../../support/document-fixtures.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { conversionResult, postFile, uploadThroughApi } from '../../support/uploads.ts';
import { listRoutes, routeKind, unclassified, type Route, type RouteKind } from '../fixtures/attack-routes.ts';
import { until } from '../../support/until.ts';
import { documentKeyOf } from '../../src/server/documents/document-service.ts';
import { printCeilingMs } from '../../support/ceilings.ts';

/**
 * Another applicant's data: applicant A has answers, a converted document, a
 * PDF copy and a service token; applicant B and an anonymous visitor try every route the
 * server has. Nothing of A's reaches them, and nothing of A's is changed or lost.
 */

interface Sent {
  status: number;
  text: string;
  headers: Record<string, unknown>;
}

function cookieHeader(cookies: Map<string, string> | undefined): Record<string, string> {
  return cookies?.size ? { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {};
}

/** One request as our own pages would send it (same-origin, JSON), with these cookies. */
async function send(app: FastifyInstance, method: string, url: string, options: { cookies?: Map<string, string>; body?: unknown; headers?: Record<string, string> } = {}): Promise<Sent> {
  const hasBody = !['GET', 'HEAD'].includes(method);
  const headers: Record<string, string> = {
    'sec-fetch-site': 'same-origin',
    ...cookieHeader(options.cookies),
    ...(hasBody ? { 'content-type': 'application/json' } : {}),
    ...options.headers,
  };
  for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name]; // '' leaves a header out
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(hasBody ? { payload: JSON.stringify(options.body ?? {}) } : {}),
  });
  return { status: response.statusCode, text: response.body, headers: response.headers };
}

const REPEATER = 'add_college';

/** What B or an anonymous visitor sends to each route: aimed at A's things wherever a body or address can name them. */
function attempt(route: Route, a: { id: string; email: string; fileKey: string }): { url: string; body?: unknown } {
  const query = `applicant_id=${a.id}&id=${a.id}&username=${encodeURIComponent(a.email)}`;
  const url = `${route.url.replace(':key', 'hs_transcript').replace(':applicantId', a.id).replace(':itemId', 'transcript')}?${query}`;
  const bodies: Record<string, unknown> = {
    'PUT /api/answer': { first_name: 'Mallory' },
    'POST /api/web-status': { web_status: 'started' },
    'PUT /api/last-page': { last_page: '/about' },
    'POST /api/validations': { first_name: ['Legal First Name'] },
    'POST /api/submit': { applicant_id: a.id },
    'PUT /api/add-another': { button_id: REPEATER, num_components: 3, applicant_id: a.id },
    'PUT /api/tabs': { tab_id: 'hs_classes_tabs', chosen_tab: 'classes', applicant_id: a.id },
    'POST /api/presigned-url': { answer_key: 'hs_transcript', key: a.fileKey, applicant_id: a.id },
    'POST /api/pdf/document-answer/:key': { file_key: a.fileKey, file_name: 'transcript.pdf' },
    'DELETE /api/pdf/document-answer/:key': { file_key: a.fileKey },
    'DELETE /api/document-answer/:key': { file_key: a.fileKey },
    'POST /api/keep-alive': {},
    'POST /public/signup': { username: a.email, password: STRONG_PASSWORD },
    'POST /public/resend-confirm': { username: a.email },
    'POST /public/confirm': { username: a.email, code: '000000' },
    'POST /public/login': { username: a.email, password: 'Wrong-Password-99' },
    'POST /public/forgot-password': { username: a.email },
    'POST /public/reset-password': { username: a.email, password: 'Quiet-Lantern-4471?', confirm_password: 'Quiet-Lantern-4471?', id: 'A'.repeat(43) },
    'POST /uploads': { key: a.fileKey },
    'PUT /api/office/applicants/:applicantId/file/items/:itemId': { state: 'received', note: 'Mallory' },
  };
  const key = `${route.method} ${route.url}`;
  if (route.url === '/lookup/find') return { url: `/lookup/find?category=hs_ceeb&text=${encodeURIComponent(a.email)}` };
  if (route.url === '/public/tmp') return { url: `/public/tmp?token=${'A'.repeat(43)}` };
  return key in bodies ? { url, body: bodies[key] } : { url };
}

async function waitForPdf(api: ApiSession): Promise<void> {
  await until(async () => {
    const { body } = await api.get<{ status: string; message?: string }>('/api/pdf');
    if (body.status === 'FAILED') throw new Error(`the PDF copy failed (${JSON.stringify(body)}): is the client built (npm run build)?`);
    return body.status === 'COMPLETED' ? true : undefined;
  }, 'the PDF copy', printCeilingMs(api.app.config));
}

describe.each(databaseTargets())('another applicant\'s data on $name', (target) => {
  let server: TestServer;
  let counter = 0;
  const email = (label: string) => `${label}.${++counter}.${target.name}@example.org`;

  // applicant A and everything of A's an attacker would want
  let a: ApiSession;
  const A = { id: '', email: '', marker: 'Zelda-Owner-Marker', fileName: 'owner-transcript.pdf', fileKey: '', convertedKey: '', pdfKey: '', serviceToken: '', sessionId: '' };
  let aPdf: Buffer;
  let aSnapshot: unknown;

  const secretsOfA = () => [A.id, A.marker, A.fileName, A.fileKey, A.convertedKey, A.pdfKey, A.serviceToken, A.sessionId, A.fileKey.split('/').pop()!];

  /** Everything A can see of their own application: compared before and after the attacks. */
  async function snapshotOfA() {
    const profile = (await a.get<Record<string, unknown>>('/api/profile')).body;
    const { successful_login: _logins, ...rest } = profile;
    return {
      profile: rest,
      addAnother: (await a.get('/api/add-another')).body,
      tabs: (await a.get('/api/tabs')).body,
      documents: (await a.get('/api/document-answer')).body,
      conversion: (await a.get('/api/pdf/document-answer/hs_transcript')).body,
      pdf: (await a.get('/api/pdf')).body,
    };
  }

  function expectNothingOfA(response: Sent, label: string, options: { echoesEmail?: boolean } = {}) {
    const seen = `${response.text}\n${JSON.stringify(response.headers)}`;
    for (const secret of [...secretsOfA(), ...(options.echoesEmail ? [] : [A.email])]) {
      expect(seen.includes(secret), `${label} reveals ${secret}`).toBe(false);
    }
    expect(response.text.startsWith('%PDF'), `${label} answers a PDF`).toBe(false);
    expect(response.headers['access-control-allow-origin'], `${label} allows another origin`).toBeUndefined();
  }

  /**
   * The statuses each kind of route answers in the sweeps below. Every kind has one, so a
   * route put under the wrong kind in attack-routes.ts fails (an applicant route called
   * public answers 401 where 200 is expected), rather than escaping the kind's checks.
   */
  const ANONYMOUS_ANSWERS: Record<RouteKind, number[]> = {
    applicant: [401], service: [401], prefill: [404], upload: [400], // no session, token or policy
    logout: [200], account: [200, 400], lookup: [200], health: [200], static: [200], contract: [200], // open to all
    'page-post': [400], // a JSON body is no form post
    report: [200, 400], // anyone's page may report; a body of another shape is refused
    unsubscribe: [404], counselor: [404], // no token
    office: [401], // no office key
  };
  const B_ANSWERS: Record<RouteKind, number[]> = {
    applicant: [200, 400, 403, 404, 422], // B's session holds: B's own data, or a refusal of A's names
    service: [401], prefill: [404], upload: [400],
    logout: [200], account: [200, 400], lookup: [200], health: [200], static: [200], contract: [200],
    'page-post': [400], report: [200, 400], unsubscribe: [404], counselor: [404], // a session is no counselor link
    office: [401], // a session is not an office key
  };

  beforeAll(async () => {
    server = await startTestServerOn(target);

    A.email = email('owner');
    a = await createConfirmedApplicant(server.app, A.email);
    A.sessionId = a.cookies.get('session')!;
    A.id = (await server.app.db.selectFrom('applicants').select('id').where('email', '=', A.email).executeTakeFirstOrThrow()).id;
    expect((await a.put('/api/answer', { first_name: A.marker, last_name: 'Owner', gender: 'F' })).status).toBe(200);
    expect((await a.put('/api/add-another', { button_id: REPEATER, num_components: 2 })).status).toBe(200);
    expect((await a.put('/api/tabs', { tab_id: 'hs_classes_tabs', chosen_tab: 'transcript' })).status).toBe(200);
    expect((await a.put('/api/last-page', { last_page: '/education-ug' })).status).toBe(200);
    expect((await a.post('/api/web-status', { web_status: 'started' })).status).toBe(200);
    A.fileKey = await uploadThroughApi(server.app, a, 'hs_transcript', A.fileName, await makePdf([`Transcript of ${A.marker}`]));
    expect((await conversionResult(a, 'hs_transcript')).status).toBe('COMPLETED');
    A.convertedKey = (await server.app.db.selectFrom('documents').select('pdf_key').where('applicant_id', '=', A.id).executeTakeFirstOrThrow()).pdf_key!;
    await a.get('/api/pdf');
    await waitForPdf(a);
    A.pdfKey = (await server.app.db.selectFrom('application_pdfs').select('pdf_key').where('applicant_id', '=', A.id).executeTakeFirstOrThrow()).pdf_key!;
    const download = await server.app.inject({ method: 'GET', url: '/api/pdf/file', headers: cookieHeader(a.cookies) });
    expect(download.statusCode).toBe(200);
    aPdf = download.rawPayload;
    expect(aPdf.subarray(0, 5).toString()).toBe('%PDF-');
    A.serviceToken = signServiceToken(server.app.serviceSecret, A.id, 10 * 60_000);
    aSnapshot = await snapshotOfA();
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  it('knows every route the server has', async () => {
    const routes = listRoutes(server.app);
    expect(unclassified(routes), 'classify these routes in tests/fixtures/attack-routes.ts').toEqual([]);
    // the routes that hold an applicant's data are there, so the sweep below really tries them
    for (const route of ['GET /api/profile', 'GET /api/pdf', 'GET /api/pdf/file', 'POST /api/presigned-url', 'POST /api/pdf/document-answer/:key', 'GET /service/tmp-pdf', 'POST /uploads']) {
      expect(routes.map((item) => `${item.method} ${item.url}`)).toContain(route);
    }
  });

  it('gives an anonymous visitor nothing of A\'s on any route, and every applicant route answers 401', async () => {
    const routes = listRoutes(server.app);
    for (const route of routes) {
      const kind = routeKind(route)!;
      const { url, body } = attempt(route, A);
      const response = await send(server.app, route.method, url, { body });
      const label = `anonymous ${route.method} ${route.url}`;
      expectNothingOfA(response, label, { echoesEmail: kind === 'account' || kind === 'lookup' });
      expect(ANONYMOUS_ANSWERS[kind], `${label} (${kind}) answered ${response.status}`).toContain(response.status);
      // a staff link's route says the link has ended; every other says the session has
      const said = kind === 'service' ? errors.staff_link_ended.title : kind === 'office' ? apiMessages.office_key_invalid : errors.session_invalid;
      if (response.status === 401 && route.method !== 'HEAD') expect(JSON.parse(response.text).message, label).toBe(said);
    }
    expect(await snapshotOfA()).toEqual(aSnapshot);
  });

  it('gives applicant B nothing of A\'s on any route, and B\'s writes change only B\'s application', async () => {
    const bEmail = email('intruder');
    const b = await createConfirmedApplicant(server.app, bEmail);
    const bId = (await server.app.db.selectFrom('applicants').select('id').where('email', '=', bEmail).executeTakeFirstOrThrow()).id;
    // asked plainly, the presigned POST is for B's own folder
    const presigned = await send(server.app, 'POST', '/api/presigned-url', { body: { answer_key: 'hs_transcript' }, cookies: b.cookies });
    expect(JSON.parse(presigned.text).fields.key).toMatch(new RegExp(`^uploads/${bId}/hs_transcript/[0-9a-f-]{36}$`));
    // logout last, so every other route sees B's live session
    const routes = listRoutes(server.app).sort((x, y) => Number(routeKind(x) === 'logout') - Number(routeKind(y) === 'logout'));
    for (const route of routes) {
      const kind = routeKind(route)!;
      const { url, body } = attempt(route, A);
      const response = await send(server.app, route.method, url, { body, cookies: b.cookies });
      const label = `B ${route.method} ${route.url}`;
      expectNothingOfA(response, label, { echoesEmail: kind === 'account' || kind === 'lookup' });
      expect(B_ANSWERS[kind], `${label} (${kind}) answered ${response.status}`).toContain(response.status); // a session is not a service token
      // a body that names A's key or id has fields the contract does not know: refused before any service reads it
      if (route.method === 'POST' && route.url === '/api/presigned-url') expect([response.status, JSON.parse(response.text).code], label).toEqual([400, 'INVALID_REQUEST']);
      if (route.method === 'POST' && route.url === '/api/pdf/document-answer/:key') expect(response.status, label).toBe(403);
      if (route.method === 'GET' && route.url === '/api/pdf/document-answer/:key') expect(JSON.parse(response.text), label).toEqual({ status: 'NOT_ANSWERED' });
      if (route.method === 'GET' && route.url === '/api/pdf/file') expect(response.status, label).toBe(404);
      if (route.method === 'GET' && route.url === '/api/document-answer') expect(JSON.parse(response.text), label).toEqual({});
    }
    // B's own writes landed in B's application only
    const bLogin = new ApiSession(server.app);
    await bLogin.post('/public/login', { username: bEmail, password: STRONG_PASSWORD });
    expect((await bLogin.get<{ answer: Record<string, unknown> }>('/api/profile')).body.answer).toEqual({ first_name: 'Mallory' });
    expect(await snapshotOfA()).toEqual(aSnapshot);
    // A is still logged in: B's wrong confirmation code, wrong password and forged reset ended nothing
    expect((await a.get('/api/profile')).status).toBe(200);
  });

  it('keeps A\'s PDF copy from B: B gets only its own, and no stored object is served by address', async () => {
    const b = await createConfirmedApplicant(server.app, email('pdf-intruder'));
    expect((await b.get('/api/pdf/file')).status).toBe(404);
    expect((await b.get('/api/pdf/file')).body).toMatchObject({ message: documentsText.messages.download_error, code: 'NO_PDF' });
    const bPdf = await b.get<{ status: string; url?: string }>('/api/pdf');
    expect(bPdf.body.status).not.toBe('COMPLETED');
    expect(JSON.stringify(bPdf.body)).not.toContain('service_token');
    // the objects' keys are never addresses of the server, with or without traversal
    for (const key of [A.pdfKey, A.convertedKey, A.fileKey, documentKeyOf(A.fileKey)]) {
      for (const path of [`/${key}`, `/objects/${key}`, `/data/objects/${key}`, `/uploads/${key}`, `/assets/..%2f..%2fobjects%2f${encodeURIComponent(key)}`, `/assets/../../objects/${key}`, `/%2e%2e/objects/${key}`]) {
        for (const cookies of [b.cookies, a.cookies, undefined]) {
          const response = await server.app.inject({ method: 'GET', url: path, headers: cookieHeader(cookies) });
          expect(response.body.startsWith('%PDF'), `GET ${path}`).toBe(false);
          expect(response.headers['content-type'], `GET ${path}`).not.toMatch(/pdf|octet-stream/);
        }
      }
    }
    // A still downloads exactly the same PDF
    const again = await server.app.inject({ method: 'GET', url: '/api/pdf/file', headers: cookieHeader(a.cookies) });
    expect(again.rawPayload.equals(aPdf)).toBe(true);
  });

  it('refuses B\'s claims on A\'s upload: registering A\'s key, reaching it by traversal, or posting to it with B\'s own policy', async () => {
    const b = await createConfirmedApplicant(server.app, email('upload-intruder'));
    const aFile = await server.app.storage.get(documentKeyOf(A.fileKey));
    const bFields = (await b.post<{ fields: Record<string, string> }>('/api/presigned-url', { answer_key: 'hs_transcript' })).body.fields;
    const bPrefix = bFields.key!.replace(/[^/]+$/, '');
    const aUuid = A.fileKey.split('/').pop()!;
    for (const fileKey of [
      A.fileKey,
      `${bPrefix}../../${A.id}/hs_transcript/${aUuid}`,
      `${bPrefix}..%2F..%2F${A.id}%2Fhs_transcript%2F${aUuid}`,
      `${bPrefix.replace('hs_transcript', 'activ_resume')}${aUuid}`,
      `/${A.fileKey}`,
      ` ${A.fileKey}`,
    ]) {
      const response = await b.post('/api/pdf/document-answer/hs_transcript', { file_key: fileKey, file_name: 'mine.pdf' });
      expect([400, 403], fileKey).toContain(response.status);
    }
    expect((await b.get('/api/pdf/document-answer/hs_transcript')).body).toEqual({ status: 'NOT_ANSWERED' });

    const bytes = await makePdf(['Mallory was here']);
    // B's own signed policy does not open A's key, nor a key beside it
    expect((await postFile(server.app, { ...bFields, key: A.fileKey }, 'x.pdf', bytes)).statusCode).toBe(403);
    expect((await postFile(server.app, { ...bFields, key: `${A.fileKey}.2` }, 'x.pdf', bytes)).statusCode).toBe(403);
    expect((await postFile(server.app, { ...bFields, key: `${bPrefix}../../${A.id}/hs_transcript/${aUuid}` }, 'x.pdf', bytes)).statusCode).toBe(403);
    // B cannot re-sign: a policy naming A's key with B's signature, or B's policy with its key swapped inside
    const aPolicy = Buffer.from(JSON.stringify({ expiration: new Date(Date.now() + 60_000).toISOString(), conditions: [{ key: A.fileKey }, ['content-length-range', 1, documentsText.max_bytes]] })).toString('base64');
    expect((await postFile(server.app, { ...bFields, key: A.fileKey, policy: aPolicy }, 'x.pdf', bytes)).statusCode).toBe(403);
    const swapped = Buffer.from(Buffer.from(bFields.policy!, 'base64').toString().replace(bFields.key!, A.fileKey)).toString('base64');
    expect((await postFile(server.app, { ...bFields, key: A.fileKey, policy: swapped }, 'x.pdf', bytes)).statusCode).toBe(403);
    expect((await server.app.storage.get(documentKeyOf(A.fileKey))).equals(aFile)).toBe(true);
    // an answer key that climbs out of B's folder is not a question
    for (const answerKey of ['../hs_transcript', `../../${A.id}/hs_transcript`, 'hs_transcript/../../x']) {
      expect((await b.post('/api/presigned-url', { answer_key: answerKey })).status, answerKey).toBe(400);
    }
    expect(await snapshotOfA()).toEqual(aSnapshot);
  });

  it('honours A\'s service token for reading A\'s view only: not as a session, not for writes, not for B', async () => {
    const b = await createConfirmedApplicant(server.app, email('token-intruder'));
    const view = await send(server.app, 'GET', `/service/tmp-pdf?service_token=${encodeURIComponent(A.serviceToken)}`, { cookies: b.cookies });
    expect(view.status).toBe(200);
    expect(JSON.parse(view.text).answer.first_name).toBe(A.marker); // the token names A, whoever holds it
    expect(JSON.parse(view.text)).not.toHaveProperty('username');
    const token = encodeURIComponent(A.serviceToken);
    const asSession = new Map([['session', A.serviceToken]]);
    for (const [method, url, body] of [
      ['GET', `/api/profile?service_token=${token}`, undefined],
      ['GET', `/api/pdf/file?service_token=${token}`, undefined],
      ['PUT', `/api/answer?service_token=${token}`, { first_name: 'Mallory' }],
      ['DELETE', `/api/document-answer/hs_transcript?service_token=${token}`, {}],
      ['POST', `/api/submit?service_token=${token}`, {}],
    ] as const) {
      expect((await send(server.app, method, url, { body })).status, `${method} ${url}`).toBe(401);
      expect((await send(server.app, method, url.replace(/\?.*/, ''), { body, cookies: asSession })).status, `${method} ${url} with the token as session`).toBe(401);
      const withB = await send(server.app, method, url, { body, cookies: b.cookies });
      expectNothingOfA(withB, `B ${method} ${url}`);
    }
    // a service token with B's signature scheme but A's id, and A's session id used as a token, are refused
    expect((await send(server.app, 'GET', `/service/tmp-pdf?service_token=${encodeURIComponent(A.sessionId)}`)).status).toBe(401);
    const [payload] = A.serviceToken.split('.');
    const bToken = signServiceToken(server.app.serviceSecret, 'someone-else', 60_000);
    expect((await send(server.app, 'GET', `/service/tmp-pdf?service_token=${payload}.${bToken.split('.')[1]}`)).status).toBe(401);
    expect(await snapshotOfA()).toEqual(aSnapshot);
  });

  it('refuses every write, and logout, sent cross-site with A\'s cookies', async () => {
    for (const route of listRoutes(server.app)) {
      const kind = routeKind(route)!;
      const write = !['GET', 'HEAD'].includes(route.method) || kind === 'logout';
      // uploads and the one-click unsubscribe carry no cookie authority: the signed policy or token is the authority
      if (!write || kind === 'upload' || kind === 'unsubscribe') continue;
      const { url, body } = attempt(route, A);
      // the office API takes no cookie at all: A's cookies from anywhere are no office key
      if (kind === 'office') {
        expect((await send(server.app, route.method, url, { body, cookies: a.cookies, headers: { 'sec-fetch-site': 'cross-site' } })).status, `${route.method} ${route.url}`).toBe(401);
        continue;
      }
      for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { 'sec-fetch-site': '', origin: 'https://evil.example' }]) {
        const response = await send(server.app, route.method, url, { body, cookies: a.cookies, headers: headers as Record<string, string> });
        expect(response.status, `${route.method} ${route.url} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    expect((await a.get('/api/profile')).status).toBe(200);
    expect(await snapshotOfA()).toEqual(aSnapshot);
  });
});
