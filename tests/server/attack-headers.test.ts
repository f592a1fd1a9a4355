import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setApplicationPdf } from '../../src/server/db/repositories/application-pdf-repository.ts';
import { ApiSession, STRONG_PASSWORD, outboxCode } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { makePdf } from '../../support/document-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { listRoutes, routeKind, type Route, type RouteKind } from '../fixtures/attack-routes.ts';
import { until } from '../../support/until.ts';

/**
 * Headers: every answer of every route, over http and behind https, carries the
 * security headers and no server banner; API answers are never cached; every cookie the
 * server sets is HttpOnly (the session), SameSite, and Secure with the __Host- prefix
 * behind https; the PDF copy downloads as an attachment that is never sniffed.
 */

/**
 * What each kind of route must say about caching, and how many cookies it sets for a
 * session id that is no longer valid. Every kind is named, so a route filed under the
 * wrong kind in attack-routes.ts fails instead of escaping a check.
 */
const CACHING: Record<RouteKind, 'no-store' | 'cacheable'> = {
  applicant: 'no-store', logout: 'no-store', account: 'no-store', prefill: 'no-store', service: 'no-store',
  lookup: 'no-store', health: 'no-store', upload: 'no-store', contract: 'no-store', static: 'cacheable', 'page-post': 'no-store', report: 'no-store', unsubscribe: 'no-store', counselor: 'no-store', office: 'no-store',
};
const COOKIES_FOR_A_STALE_SESSION: Record<RouteKind, number> = {
  applicant: 2, logout: 2, // refuse the stale session, and clear both cookies
  account: 0, prefill: 0, service: 0, lookup: 0, health: 0, upload: 0, contract: 0, static: 0,
  'page-post': 0, // a JSON body is refused before the session is read
  report: 0, unsubscribe: 0, office: 0, counselor: 0, // the link's token is the authority: a stale session is not read
};

function cookieHeader(cookies: Map<string, string>): string {
  return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** A request each route accepts in shape (its status does not matter here), with the given cookies. */
function requestFor(route: Route, cookies: Map<string, string>) {
  const write = !['GET', 'HEAD'].includes(route.method);
  const url = route.url === '/lookup/find' ? '/lookup/find?category=hs_ceeb&text=lin' : route.url.replace(':key', 'hs_transcript');
  return {
    method: route.method as 'GET',
    url,
    headers: {
      'sec-fetch-site': 'same-origin',
      ...(cookies.size ? { cookie: cookieHeader(cookies) } : {}),
      ...(write ? { 'content-type': 'application/json' } : {}),
    },
    ...(write ? { payload: '{}' } : {}),
  };
}

interface SeenCookie {
  route: string;
  raw: string;
}

function expectSecurityHeaders(response: LightMyRequestResponse, label: string, https: boolean): void {
  const headers = response.headers;
  const csp = String(headers['content-security-policy'] ?? '');
  expect(csp, `${label}: CSP`).toContain("default-src 'self'");
  expect(csp, label).toContain("script-src 'self'");
  expect(csp, label).toContain("frame-ancestors 'none'");
  expect(csp, label).toContain("object-src 'none'");
  expect(csp, label).toContain("base-uri 'none'");
  expect(csp, label).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes|\*/);
  expect(headers['x-frame-options'], label).toBe('DENY');
  expect(headers['x-content-type-options'], label).toBe('nosniff');
  expect(headers['referrer-policy'], label).toBe('no-referrer');
  expect(headers['cross-origin-opener-policy'], label).toBe('same-origin');
  expect(headers.server, `${label}: server banner`).toBeUndefined();
  expect(headers['x-powered-by'], `${label}: x-powered-by`).toBeUndefined();
  expect(headers['access-control-allow-origin'], label).toBeUndefined();
  expect(headers['access-control-allow-credentials'], label).toBeUndefined();
  if (https) expect(headers['strict-transport-security'], label).toBe('max-age=31536000; includeSubDomains');
  else expect(headers['strict-transport-security'], label).toBeUndefined();
}

function cookiesOf(response: LightMyRequestResponse): string[] {
  const raw = response.headers['set-cookie'];
  return raw === undefined ? [] : ([] as string[]).concat(raw as string | string[]);
}

function expectCookieFlags(seen: SeenCookie[], https: boolean): void {
  const sessionName = https ? '__Host-session' : 'session';
  const signupName = https ? '__Host-signup' : 'signup';
  expect(seen.length).toBeGreaterThan(0);
  for (const { route, raw } of seen) {
    const [pair, ...attributes] = raw.split(';').map((part) => part.trim());
    const name = pair!.slice(0, pair!.indexOf('='));
    const flags = attributes.map((attribute) => attribute.toLowerCase());
    const label = `${route}: ${raw}`;
    // lang: the account's language, which the page reads (not a credential, like logged_in)
    expect([sessionName, 'logged_in', signupName, 'lang'], label).toContain(name);
    // the sign-up's browser proof is sent only to this site, even on a link from elsewhere
    expect(flags, label).toContain(name === signupName ? 'samesite=strict' : 'samesite=lax');
    expect(flags, label).toContain('path=/');
    expect(flags.some((flag) => flag.startsWith('domain=')), label).toBe(false);
    // the page reads logged_in and lang (neither opens anything); every credential is HttpOnly
    if (name !== 'logged_in' && name !== 'lang') expect(flags, label).toContain('httponly');
    if (https) expect(flags, label).toContain('secure');
    else expect(flags, label).not.toContain('secure');
  }
}

describe.each([
  { scheme: 'http', env: {} as Record<string, string> },
  { scheme: 'https', env: { PUBLIC_URL: 'https://apply.example.edu' } },
])('headers over $scheme', ({ scheme, env }) => {
  const https = scheme === 'https';
  let server: TestServer;
  let app: FastifyInstance;
  let counter = 0;
  const email = (label: string) => `${label}.${++counter}.${scheme}@example.org`;

  /** Signs up and logs in through the API under either cookie name. */
  async function loggedIn(address: string): Promise<ApiSession> {
    if (!https) return createConfirmedApplicant(app, address);
    const api = new ApiSession(app);
    await api.post('/public/signup', { username: address, password: STRONG_PASSWORD });
    await api.post('/public/confirm', { username: address, code: await outboxCode(app, address) });
    expect((await api.post('/public/login', { username: address, password: STRONG_PASSWORD })).status).toBe(200);
    return api;
  }

  beforeAll(async () => {
    server = await startTestServer({ listen: false, env });
    app = server.app;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends the security headers, and no server banner, on every route, with and without a session', async () => {
    const api = await loggedIn(email('headers'));
    const routes = listRoutes(app);
    for (const cookies of [new Map<string, string>(), api.cookies]) {
      for (const route of routes.filter((item) => routeKind(item) !== 'logout')) {
        const response = await app.inject(requestFor(route, cookies));
        const label = `${route.method} ${route.url} (${cookies.size ? 'session' : 'anonymous'}) ${response.statusCode}`;
        expectSecurityHeaders(response, label, https);
        if (CACHING[routeKind(route)!] === 'no-store') expect(response.headers['cache-control'], label).toBe('no-store');
        else expect(response.headers['cache-control'], label).not.toBe('no-store');
        if (response.statusCode >= 400 && route.method !== 'HEAD') {
          expect(Object.keys(response.json()).every((key) => ['message', 'code', 'errors', 'pages'].includes(key)), label).toBe(true);
          expect(response.body, label).not.toMatch(/\bat .*\.(ts|js):\d+|node_modules|stack/);
        }
      }
    }
    // pages, the built files, unknown addresses, refusals and a preflight from another site: the same headers
    for (const request of [
      { method: 'GET', url: '/about' },
      { method: 'GET', url: '/api/nothing-here' },
      { method: 'POST', url: '/api/answer', headers: { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, payload: '{}' },
      { method: 'POST', url: '/public/login', headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'text/plain' }, payload: 'x' },
      { method: 'POST', url: '/public/login', headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, payload: JSON.stringify({ x: 'y'.repeat(300_000) }) },
      { method: 'OPTIONS', url: '/api/answer', headers: { origin: 'https://evil.example', 'access-control-request-method': 'PUT' } },
    ] as const) {
      const response = await app.inject(request as never);
      const label = `${request.method} ${request.url} ${response.statusCode}`;
      expectSecurityHeaders(response, label, https);
      if (request.url.startsWith('/api/') || request.url.startsWith('/public/')) expect(response.headers['cache-control'], label).toBe('no-store');
      if (request.method === 'OPTIONS') expect(response.headers['access-control-allow-methods'], label).toBeUndefined();
    }
  });

  it('sets only HttpOnly, SameSite, Path=/ cookies (Secure and __Host- behind https) on every route that sets one', async () => {
    const seen: SeenCookie[] = [];
    const address = email('cookies');
    const api = await loggedIn(address);
    const sessionName = https ? '__Host-session' : 'session';
    expect(api.cookies.has(sessionName)).toBe(true);
    // sign-up sets the browser proof, and the confirmation clears it
    const signup = await app.inject({ method: 'POST', url: '/public/signup', payload: JSON.stringify({ username: email('signup'), password: STRONG_PASSWORD }), headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' } });
    expect(cookiesOf(signup)).toHaveLength(1);
    seen.push(...cookiesOf(signup).map((raw) => ({ route: 'POST /public/signup', raw })));
    // login sets them, and the account's language
    const login = await app.inject({ method: 'POST', url: '/public/login', payload: JSON.stringify({ username: address, password: STRONG_PASSWORD }), headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' } });
    expect(cookiesOf(login).map((raw) => raw.slice(0, raw.indexOf('='))).sort()).toEqual(['lang', 'logged_in', sessionName].sort());
    seen.push(...cookiesOf(login).map((raw) => ({ route: 'POST /public/login', raw })));
    // every route, with a session id that is no longer valid: each one that refuses it clears the cookies
    const stale = new Map([[sessionName, 'stale-session-id'], ['logged_in', '1']]);
    for (const route of listRoutes(app)) {
      const response = await app.inject(requestFor(route, stale));
      seen.push(...cookiesOf(response).map((raw) => ({ route: `${route.method} ${route.url}`, raw })));
      expect(cookiesOf(response).length, `${route.method} ${route.url} (${routeKind(route)})`).toBe(COOKIES_FOR_A_STALE_SESSION[routeKind(route)!]);
    }
    // logout and a successful reset clear them too
    const logout = await app.inject({ method: 'GET', url: '/api/logout', headers: { 'sec-fetch-site': 'same-origin', cookie: cookieHeader(api.cookies) } });
    seen.push(...cookiesOf(logout).map((raw) => ({ route: 'GET /api/logout', raw })));
    expect(cookiesOf(logout)).toHaveLength(2);
    const anonymous = new ApiSession(app);
    await anonymous.post('/public/forgot-password', { username: address });
    const id = await until(async () => (await app.db.selectFrom('outbox').select('body').where('recipient', '=', address).orderBy('created_at', 'desc').execute())
      .map((row) => /\/reset\?\S*id=([\w-]+)/.exec(row.body)?.[1]).find(Boolean), 'the reset link in the outbox');
    const reset = await app.inject({
      method: 'POST', url: '/public/reset-password', headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      payload: JSON.stringify({ username: address, password: 'Quiet-Lantern-4471?', confirm_password: 'Quiet-Lantern-4471?', id }),
    });
    expect(reset.statusCode).toBe(200);
    seen.push(...cookiesOf(reset).map((raw) => ({ route: 'POST /public/reset-password', raw })));
    expectCookieFlags(seen, https);
    // the cleared cookies really expire
    for (const raw of cookiesOf(logout)) expect(raw).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
  });

  it('downloads the PDF copy as an attachment that is never sniffed nor cached', async () => {
    const address = email('download');
    const api = await loggedIn(address);
    const applicantId = (await app.db.selectFrom('applicants').select('id').where('email', '=', address).executeTakeFirstOrThrow()).id;
    // the PDF the job would make (no Chromium needed for the headers)
    await api.get('/api/pdf');
    const { fingerprint } = await app.db.selectFrom('application_pdfs').select('fingerprint').where('applicant_id', '=', applicantId).executeTakeFirstOrThrow();
    const pdfKey = `pdfs/${applicantId}/${fingerprint}.pdf`;
    await app.storage.put(pdfKey, await makePdf(['Application copy']), 'application/pdf');
    await setApplicationPdf(app.db, applicantId, fingerprint, { status: 'COMPLETED', pdf_key: pdfKey });
    expect((await api.get('/api/pdf')).body).toEqual({ status: 'COMPLETED', url: '/api/pdf/file' });

    const download = await app.inject({ method: 'GET', url: '/api/pdf/file', headers: { cookie: cookieHeader(api.cookies) } });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    // named from schemas/documents.json and partner.json, in the applicant's language
    expect(download.headers['content-disposition']).toBe(`attachment; filename="CHU application.pdf"; filename*=UTF-8''CHU%20application.pdf`);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['cache-control']).toBe('no-store');
    expectSecurityHeaders(download, 'GET /api/pdf/file', https);
    expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
