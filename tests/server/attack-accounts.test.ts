import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import messages from '../../schemas/auth/messages.json';
import { trustProxy } from '../../src/server/config.ts';
import { insertPrefill } from '../../src/server/db/repositories/prefill-repository.ts';
import { randomToken, sha256 } from '../../src/server/lib/secrets.ts';
import { ApiSession, STRONG_PASSWORD, outboxCode, outboxMail } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';
import { listRoutes, routeKind } from '../fixtures/attack-routes.ts';

/**
 * The hostile applicant with a free account: routes guarded whatever the spelling
 * of their address, accounts that belong to the mailbox owner, a login lock that counts
 * guesses sent all at once, and client addresses a client cannot choose.
 */

const ATTACKER_PASSWORD = 'Crooked-Lantern-7731!';
const TOO_MANY = /^Too many attempts\./;

/** Spellings of one path that the router takes for the same route. */
function encodings(path: string): string[] {
  const [, first, rest] = /^\/(\w)(.*)$/.exec(path)!;
  const hex = (char: string) => `%${char.charCodeAt(0).toString(16)}`;
  return [
    `/${hex(first!)}${rest}`,
    `/${hex(first!).toUpperCase()}${rest}`,
    path.replace(/\/(\w)(\w*)$/, (_, head: string, tail: string) => `/${hex(head)}${tail}`),
    path.split('').map((char) => (/[a-z]/.test(char) ? hex(char) : char)).join(''),
  ];
}

async function send(server: TestServer, method: string, url: string, options: { cookies?: Map<string, string>; headers?: Record<string, string>; payload?: string } = {}) {
  return server.app.inject({
    method: method as 'POST',
    url,
    headers: {
      ...(options.cookies?.size ? { cookie: [...options.cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {}),
      ...options.headers,
    },
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
  });
}

describe.each(databaseTargets())('the hostile applicant on $name', (target) => {
  let server: TestServer;
  let counter = 0;
  const email = (label: string) => `${label}.${++counter}.${target.name}@example.org`;

  beforeAll(async () => {
    server = await startTestServerOn(target, { listen: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('guards follow the matched route, not the spelling', () => {
    it('refuses every encoded write from a sibling site, and an encoded logout link; nothing is submitted', async () => {
      const victim = await createConfirmedApplicant(server.app, email('victim'));
      const writes = listRoutes(server.app).filter((route) => ['POST', 'PUT', 'DELETE'].includes(route.method) && !['upload', 'static', 'unsubscribe', 'office'].includes(routeKind(route)!));
      expect(writes.map((route) => route.url)).toContain('/api/submit');
      for (const route of writes) {
        const path = route.url.replace(':key', 'hs_transcript');
        for (const url of [path, ...encodings(path)]) {
          // a no-cors fetch from a sibling subdomain: same-site, not same-origin, text/plain
          const response = await send(server, route.method, url, {
            cookies: victim.cookies,
            headers: { 'sec-fetch-site': 'same-site', origin: 'https://evil.example.org', 'content-type': 'text/plain' },
            payload: '{}',
          });
          expect(response.statusCode, `${route.method} ${url}`).toBe(403);
          expect(response.json().code).toBe('CROSS_SITE');
          expect(response.headers['cache-control'], url).toBe('no-store');
        }
      }
      for (const url of encodings('/api/logout')) {
        const response = await send(server, 'GET', url, { cookies: victim.cookies, headers: { 'sec-fetch-site': 'cross-site' } });
        expect(response.statusCode, url).toBe(403);
      }
      expect((await victim.get<{ web_status?: string }>('/api/profile')).status).toBe(200); // still logged in
      const status = await server.app.db.selectFrom('web_status_entries').select('web_status').where('web_status', '=', 'submitted').execute();
      expect(status).toEqual([]);
    });

    it('applies the JSON rule and the text checks to an encoded path too', async () => {
      const applicant = await createConfirmedApplicant(server.app, email('encoded'));
      const headers = { 'sec-fetch-site': 'same-origin' };
      const plain = await send(server, 'PUT', '/%61pi/answer', { cookies: applicant.cookies, headers: { ...headers, 'content-type': 'text/plain' }, payload: '{"first_name":"Ada"}' });
      expect(plain.statusCode).toBe(415);
      const nul = await send(server, 'PUT', '/%61pi/answer', { cookies: applicant.cookies, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify({ first_name: 'A\u0000da' }) });
      expect(nul.statusCode).toBe(400);
      expect(nul.json().code).toBe('BAD_TEXT');
    });

    it('takes a write that carries no body at all (keep-alive, submit, delete) from our own pages', async () => {
      const applicant = await createConfirmedApplicant(server.app, email('nobody'));
      const bare = { cookies: applicant.cookies, headers: { 'sec-fetch-site': 'same-origin' } };
      expect((await send(server, 'POST', '/api/keep-alive', bare)).statusCode).toBe(200);
      expect((await send(server, 'DELETE', '/api/document-answer/hs_transcript', bare)).statusCode).not.toBe(415);
      const submit = await send(server, 'POST', '/api/submit', bare);
      expect(submit.statusCode).not.toBe(415);
      expect(submit.statusCode).toBeLessThan(500);
      expect((await send(server, 'GET', '/api/logout', bare)).statusCode).toBe(200);
    });
  });

  describe('an unconfirmed account belongs to whoever reads its mail', () => {
    it('a second sign-up with another password and answers takes nothing: the owner confirms and chooses the password by a mailed link', async () => {
      const address = email('contested');
      const owner = new ApiSession(server.app);
      expect((await owner.post('/public/signup', { username: address, password: STRONG_PASSWORD, answers: { first_name: 'Owner' } })).status).toBe(200);
      const firstCode = await outboxCode(server.app, address);

      const attacker = new ApiSession(server.app);
      const second = await attacker.post('/public/signup', { username: address, password: ATTACKER_PASSWORD, answers: { first_name: 'Mallory', last_name: 'Planted' } });
      expect(second.body).toMatchObject({ message: messages.signup_sent.replace('{username}', address) }); // answered as any sign-up
      const newest = await outboxCode(server.app, address);
      expect(newest).not.toBe(firstCode);

      // nobody's password opens it now, and nothing either sign-up carried is kept
      const stored = await server.app.db.selectFrom('answers').innerJoin('applicants', 'applicants.id', 'answers.applicant_id')
        .select(['key', 'value']).where('applicants.email', '=', address).execute();
      expect(stored).toEqual([]);

      // the owner confirms with the newest code; neither password logs in
      const confirmed = await owner.post('/public/confirm', { username: address, code: newest });
      expect(confirmed.body).toMatchObject({ message: messages.confirm_contested });
      for (const password of [ATTACKER_PASSWORD, STRONG_PASSWORD]) {
        const login = await new ApiSession(server.app).post('/public/login', { username: address, password });
        expect(login.status).toBe(400);
        expect(login.body).toMatchObject({ code: 'LOGIN_FAILED' });
      }
      // the owner's mailbox has the link that sets the password
      const id = await until(async () => /\/reset\?\S*id=([\w-]+)/.exec((await outboxMail(server.app, address)).body)?.[1], 'the reset link');
      const chosen = 'Owner-Chosen-Path-8812!';
      expect((await owner.post('/public/reset-password', { username: address, password: chosen, confirm_password: chosen, id })).status).toBe(200);
      expect((await new ApiSession(server.app).post('/public/login', { username: address, password: chosen })).status).toBe(200);
      expect((await new ApiSession(server.app).post('/public/login', { username: address, password: ATTACKER_PASSWORD })).status).toBe(400);
    });

    it('the same person signing up twice (a double click) keeps the password and the answers', async () => {
      const address = email('twice');
      const session = new ApiSession(server.app);
      const body = { username: address, password: STRONG_PASSWORD, answers: { first_name: 'Grace' } };
      await Promise.all([session.post('/public/signup', body), session.post('/public/signup', body)]);
      const code = await outboxCode(server.app, address);
      const confirmed = await session.post('/public/confirm', { username: address, code });
      expect(confirmed.body).toMatchObject({ message: messages.confirm_success });
      expect((await session.post('/public/login', { username: address, password: STRONG_PASSWORD })).status).toBe(200);
      expect((await session.get<{ answer: Record<string, string> }>('/api/profile')).body.answer).toMatchObject({ first_name: 'Grace' });
    });
  });

  describe('a confirmation belongs to the browser that signed up', () => {
    it('a code typed in another browser keeps neither that sign-up\'s password nor its answers: the mailbox owner chooses the password', async () => {
      const address = email('planted');
      const attacker = new ApiSession(server.app);
      expect((await attacker.post('/public/signup', { username: address, password: ATTACKER_PASSWORD, answers: { first_name: 'Mallory' } })).status).toBe(200);
      const code = await outboxCode(server.app, address);

      // the victim types the code she was mailed, in her own browser
      const victim = new ApiSession(server.app);
      const confirmed = await victim.post('/public/confirm', { username: address, code });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toMatchObject({ message: messages.confirm_other_browser });
      const login = await new ApiSession(server.app).post('/public/login', { username: address, password: ATTACKER_PASSWORD });
      expect(login.body).toMatchObject({ code: 'LOGIN_FAILED' });
      const stored = await server.app.db.selectFrom('answers').innerJoin('applicants', 'applicants.id', 'answers.applicant_id')
        .select(['key', 'value']).where('applicants.email', '=', address).execute();
      expect(stored).toEqual([]);
      // and she is mailed the link that sets her password
      await until(async () => /\/reset\?\S*id=[\w-]+/.exec((await outboxMail(server.app, address)).body) ?? undefined, 'the reset link mailed');
    });

    it('a code typed in the browser that signed up keeps its password and answers', async () => {
      const address = email('owner');
      const owner = new ApiSession(server.app);
      await owner.post('/public/signup', { username: address, password: STRONG_PASSWORD, answers: { first_name: 'Ada' } });
      const confirmed = await owner.post('/public/confirm', { username: address, code: await outboxCode(server.app, address) });
      expect(confirmed.body).toMatchObject({ message: messages.confirm_success });
      expect((await owner.post('/public/login', { username: address, password: STRONG_PASSWORD })).status).toBe(200);
      expect((await owner.get<{ answer: Record<string, string> }>('/api/profile')).body.answer).toMatchObject({ first_name: 'Ada' });
    });
  });

  it('a sign-up does the same work before it answers whether or not the address has an account', async () => {
    const knownAddress = email('known');
    await createConfirmedApplicant(server.app, knownAddress);
    // every statement the server sends the database, in order
    const statements: string[] = [];
    const executor = server.app.db.getExecutor();
    const execute = executor.executeQuery.bind(executor);
    executor.executeQuery = ((query: { sql: string }) => {
      statements.push(query.sql);
      return execute(query as never);
    }) as typeof executor.executeQuery;
    // what a sign-up sends until its mail ticket exists (the answer follows it at once)
    const workBeforeTicket = async (address: string) => {
      statements.length = 0;
      expect((await new ApiSession(server.app).post('/public/signup', { username: address, password: STRONG_PASSWORD, answers: { first_name: 'Ada' } })).status).toBe(200);
      const ticket = statements.findIndex((text) => /^insert into "mails"/.test(text));
      expect(ticket).toBeGreaterThan(0);
      const work = statements.slice(0, ticket + 1);
      await outboxMail(server.app, address); // its background work done before the next is counted
      return work;
    };
    try {
      const known = await workBeforeTicket(knownAddress);
      const unknown = await workBeforeTicket(email('unknown'));
      expect(unknown).toEqual(known);
      expect(known.some((text) => /^insert into "applicants"/.test(text))).toBe(false);
    } finally {
      executor.executeQuery = execute;
    }
  });

  it('a prefill link is used up by the account its answers went into', async () => {
    const token = randomToken();
    await insertPrefill(server.app.db, sha256(token), { first_name: 'Prospect' }, new Date(Date.now() + 60_000));
    const visitor = new ApiSession(server.app);
    expect((await visitor.get(`/public/tmp?token=${token}`)).status).toBe(200);
    await visitor.post('/public/signup', { username: email('prospect'), password: STRONG_PASSWORD, answers: { first_name: 'Prospect' }, prefill_token: token });
    // used up with the account's creation, which follows the answer
    await until(async () => ((await visitor.get(`/public/tmp?token=${token}`)).status === 404 ? true : undefined), 'the prefill link used up');
    expect(await server.app.db.selectFrom('prefill_tokens').select('token_hash').where('token_hash', '=', sha256(token)).execute()).toEqual([]);
  });

  describe('the login lock counts guesses sent at once', () => {
    it('80 wrong passwords and the right one at once: at most 10 are checked, no session', async () => {
      const address = email('storm');
      await createConfirmedApplicant(server.app, address);
      const guesses = Array.from({ length: 80 }, (_, index) => `Wrong-Guess-${index}-Pass!`);
      const replies = await Promise.all([...guesses, STRONG_PASSWORD].map((password) =>
        send(server, 'POST', '/public/login', { headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, payload: JSON.stringify({ username: address, password }) })));
      const checked = replies.filter((reply) => reply.statusCode !== 429);
      expect(checked.length).toBeLessThanOrEqual(10);
      expect(replies.filter((reply) => reply.statusCode === 429).every((reply) => TOO_MANY.test(reply.json().message))).toBe(true);
      // the right password, sent last, was no luckier than the guesses around it: whatever it
      // got, the guesses checked stay within the limit, and a session came only from it
      const sessions = replies.filter((reply) => reply.cookies.some((cookie) => cookie.value));
      expect(sessions.length).toBeLessThanOrEqual(1);
    });

    it('12 wrong confirmation codes at once: at most 5 are checked and the code is void', async () => {
      const address = email('codes');
      await new ApiSession(server.app).post('/public/signup', { username: address, password: STRONG_PASSWORD });
      const code = await outboxCode(server.app, address);
      const wrong = Array.from({ length: 12 }, (_, index) => String((Number(code) + 1 + index) % 1_000_000).padStart(6, '0'));
      const replies = await Promise.all(wrong.map((guess) =>
        send(server, 'POST', '/public/confirm', { headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, payload: JSON.stringify({ username: address, code: guess }) })));
      expect(replies.filter((reply) => reply.json().code === 'CODE_INVALID').length).toBeLessThanOrEqual(4);
      const right = await new ApiSession(server.app).post('/public/confirm', { username: address, code });
      expect(right.body).toMatchObject({ code: 'CODE_VOID' });
    });
  });
});

describe('client addresses behind one load balancer (TRUST_PROXY=1)', () => {
  const target = databaseTargets()[0]!;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServerOn(target, { listen: false, env: { TRUST_PROXY: '1', AUTH_RATE_LIMIT_PER_IP: '3' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a forged X-Forwarded-For does not give a client new addresses: the balancer\'s entry counts', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      // the client writes its own header; the balancer appends the address it saw
      const response = await server.app.inject({
        method: 'POST', url: '/public/forgot-password', remoteAddress: '10.0.0.2',
        headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', 'x-forwarded-for': `198.51.100.${attempt}, 203.0.113.9` },
        payload: JSON.stringify({ username: `forged${attempt}@example.org` }),
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // another real client behind the same balancer has its own count
    const other = await server.app.inject({
      method: 'POST', url: '/public/forgot-password', remoteAddress: '10.0.0.2',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', 'x-forwarded-for': '203.0.113.10' },
      payload: JSON.stringify({ username: 'other@example.org' }),
    });
    expect(other.statusCode).toBe(200);
  });

  it('refuses "trust every hop" and reads hop counts and address lists', () => {
    expect(() => trustProxy('true')).toThrow(/never "trust all"/);
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy(undefined)).toBe(false);
    expect(trustProxy('10.0.0.5, 10.0.1.0/24')).toEqual(['10.0.0.5', '10.0.1.0/24']);
    expect(() => trustProxy('loadbalancer.internal')).toThrow();
  });
});
