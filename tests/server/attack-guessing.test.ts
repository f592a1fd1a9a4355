import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import messages from '../../schemas/auth/messages.json';
import { HASHES_AT_ONCE, hashingQueue } from '../../src/server/accounts/password-hasher.ts';
import { insertPrefill } from '../../src/server/db/repositories/prefill-repository.ts';
import { randomToken, sha256 } from '../../src/server/lib/secrets.ts';
import { signServiceToken, verifyServiceToken } from '../../src/server/pdf/service-token.ts';
import { fillTemplate } from '../../src/shared/text/fill-template.ts';
import { ApiSession, STRONG_PASSWORD, outboxCode, outboxMail } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServer, startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';
import { listRoutes, routeKind } from '../fixtures/attack-routes.ts';

/**
 * Guessing: confirmation codes, passwords, reset links, session ids and
 * service tokens cannot be guessed in the time the limits leave, from one address or
 * from many.
 */

const TOO_MANY = /^Too many attempts\. Please wait \d+ minutes and try again\.$/;
const OTHER_PASSWORD = 'Quiet-Lantern-4471?';

/** A body each account route accepts as well-formed, for this address. */
function accountBody(url: string, username: string): Record<string, string> {
  switch (url) {
    case '/public/signup': return { username, password: STRONG_PASSWORD };
    case '/public/confirm': return { username, code: '000000' };
    case '/public/login': return { username, password: 'Wrong-Password-99' };
    case '/public/reset-password': return { username, password: OTHER_PASSWORD, confirm_password: OTHER_PASSWORD, id: 'A'.repeat(43) };
    default: return { username };
  }
}

function post(server: TestServer, url: string, body: unknown, headers: Record<string, string> = {}, remoteAddress?: string) {
  return server.app.inject({
    method: 'POST', url, payload: JSON.stringify(body), ...(remoteAddress ? { remoteAddress } : {}),
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', ...headers },
  });
}

async function resetLink(server: TestServer, email: string, previous?: string): Promise<string> {
  return until(async () => {
    const id = /\/reset\?\S*id=([\w-]+)/.exec((await outboxMail(server.app, email)).body)?.[1];
    return id && id !== previous ? id : undefined;
  }, `a new reset link for ${email}`);
}

describe('per client address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ listen: false, env: { AUTH_RATE_LIMIT_PER_IP: '3' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 429 with the message and Retry-After on every account route past the limit, whatever X-Forwarded-For says', async () => {
    const routes = listRoutes(server.app).filter((route) => routeKind(route) === 'account');
    expect(routes.length).toBeGreaterThanOrEqual(6);
    let counter = 0;
    for (const route of routes) {
      // different addresses each time: the per-account limits are not what stops these
      for (let attempt = 0; attempt < 3; attempt++) {
        const response = await post(server, route.url, accountBody(route.url, `ip${++counter}@example.org`));
        expect(response.statusCode, route.url).not.toBe(429);
      }
      for (const spoofed of [{}, { 'x-forwarded-for': '198.51.100.7' }, { 'x-real-ip': '198.51.100.8' }] as Record<string, string>[]) {
        const limited = await post(server, route.url, accountBody(route.url, `ip${++counter}@example.org`), spoofed);
        expect(limited.statusCode, route.url).toBe(429);
        expect(limited.json().message, route.url).toMatch(TOO_MANY);
        expect(limited.json().message).toBe(fillTemplate(messages.rate_limited, { minutes: 1 }));
        expect(limited.json().code).toBe('RATE_LIMITED');
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
      }
      // another address has its own count
      expect((await post(server, route.url, accountBody(route.url, `ip${++counter}@example.org`), {}, '192.0.2.44')).statusCode, route.url).not.toBe(429);
    }
  });

  it('limits look-ups to 600 a minute per address, with the same message', async () => {
    let last = 0;
    for (let index = 0; index < 600; index++) {
      last = (await server.app.inject({ method: 'GET', url: '/lookup/find?category=hs_ceeb&text=', remoteAddress: '192.0.2.99' })).statusCode;
      if (last !== 200) break;
    }
    expect(last).toBe(200);
    const limited = await server.app.inject({ method: 'GET', url: '/lookup/find?category=hs_ceeb&text=', remoteAddress: '192.0.2.99' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(TOO_MANY);
  });
});

describe('password hashing, shared by client address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ listen: false, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lets another address log in in its turn while one address floods the hashing with guesses at many accounts', async () => {
    const victim = 'hashing.victim@example.org';
    await createConfirmedApplicant(server.app, victim);
    const attacker = '198.51.100.7';
    const finished: string[] = [];
    // the test holds every hashing place, so the whole flood and then the victim are waiting
    // when the places free up: the order is the queue's, whatever the machine's speed
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const held = Array.from({ length: HASHES_AT_ONCE }, () => hashingQueue.run('held by the test', () => gate));
    // wrong passwords for thirty different accounts: no per-account limit applies, each costs a hash
    const flood = Array.from({ length: 30 }, (_, index) =>
      post(server, '/public/login', { username: `flood.${index}@example.org`, password: 'Wrong-Guess-0000!' }, {}, attacker)
        .then((response) => { finished.push('flood'); return response; }));
    await until(async () => (hashingQueue.load().waiting[attacker] === 30 ? true : undefined), 'the flood to wait for the hashing');
    const login = post(server, '/public/login', { username: victim, password: STRONG_PASSWORD }, {}, '203.0.113.5')
      .then((response) => { finished.push('victim'); return response; });
    await until(async () => (hashingQueue.load().waiting['203.0.113.5'] === 1 ? true : undefined), 'the victim to wait for the hashing');
    release();
    await Promise.all(held);
    expect((await login).statusCode).toBe(200);
    const refused = (await Promise.all(flood)).filter((response) => response.statusCode !== 400);
    // one queue for everyone put the victim behind all thirty; in turns it is among the first
    // to be hashed, and most of the flood is answered after it
    expect(finished.length - finished.indexOf('victim') - 1).toBeGreaterThanOrEqual(15);
    for (const response of refused) expect(response.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('refuses an address more waiting hashes than its share, with the standard 429, and still serves others', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const held = Array.from({ length: HASHES_AT_ONCE }, () => hashingQueue.run('held by the test', () => gate));
    // one IPv6 /64 under forty addresses: one share, of 32 waiting hashes
    let refusedSoFar = 0;
    const flood = Array.from({ length: 40 }, (_, index) =>
      post(server, '/public/login', { username: `burst.${index}@example.org`, password: 'Wrong-Guess-0000!' }, {}, `2001:db8:7:7::${(index + 1).toString(16)}`)
        .then((response) => { if (response.statusCode === 429) refusedSoFar++; return response; }));
    const other = post(server, '/public/login', { username: 'someone.else@example.org', password: 'Wrong-Guess-0000!' }, {}, '203.0.113.9');
    await until(async () => {
      const waiting = hashingQueue.load().waiting;
      return waiting['2001:db8:7:7::/64'] === 32 && waiting['203.0.113.9'] === 1 && refusedSoFar === 8 ? true : undefined;
    }, 'the share to fill up and the rest to be refused');
    release();
    await Promise.all(held);
    const answers = await Promise.all(flood);
    const limited = answers.filter((response) => response.statusCode === 429);
    expect(limited).toHaveLength(8);
    for (const response of limited) {
      expect(response.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(response.json().message).toMatch(TOO_MANY);
      expect(response.headers['retry-after']).toBeDefined();
    }
    expect(answers.filter((response) => response.statusCode === 400)).toHaveLength(32);
    expect((await other).statusCode).toBe(400);
  });
});

describe.each(databaseTargets())('per account on $name, from many addresses (TRUST_PROXY on)', (target) => {
  let server: TestServer;
  let counter = 0;
  let address = 0;
  const email = (label: string) => `${label}.${++counter}.${target.name}@example.org`;
  /** Every call from a new client address, as a botnet's would come through the one load balancer (which writes the address it saw). */
  const fromAnywhere = (url: string, body: unknown) => post(server, url, body, { 'x-forwarded-for': `203.0.113.${++address % 250}` });

  beforeAll(async () => {
    // the per-address limit stays at the test default: what is shown here is that new addresses do not help
    server = await startTestServerOn(target, { listen: false, env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('voids a confirmation code after 5 wrong guesses and allows 15 tries an hour, across addresses and spellings', async () => {
    const username = email('confirm');
    await new ApiSession(server.app).post('/public/signup', { username, password: STRONG_PASSWORD });
    const code = await outboxCode(server.app, username);
    const wrong = code === '000000' ? '111111' : '000000';
    const spellings = [username, username.toUpperCase(), `${username[0]!.toUpperCase()}${username.slice(1)}`];
    const answers: string[] = [];
    for (let attempt = 0; attempt < 5; attempt++) answers.push((await fromAnywhere('/public/confirm', { username: spellings[attempt % 3], code: wrong })).json().message);
    expect(answers).toEqual([...Array(4).fill(messages.confirm_invalid), messages.confirm_too_many]);
    // the right code is void now, whoever sends it
    expect((await fromAnywhere('/public/confirm', { username, code })).json().message).toBe(messages.confirm_too_many);
    // after at most 15 tries in the hour, even fresh codes cannot be tried
    let status = 0;
    let tries = 6;
    for (; tries < 20 && status !== 429; tries++) {
      if (tries % 5 === 0) await fromAnywhere('/public/resend-confirm', { username });
      status = (await fromAnywhere('/public/confirm', { username, code: wrong })).statusCode;
    }
    expect(status).toBe(429);
    expect(tries).toBe(16);
    const limited = await fromAnywhere('/public/confirm', { username, code: await outboxCode(server.app, username) });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(TOO_MANY);
  });

  it('locks login after 10 wrong passwords from 10 addresses, for the right password too, and only for that account', async () => {
    const username = email('login');
    await createConfirmedApplicant(server.app, username);
    const bystander = email('bystander');
    await createConfirmedApplicant(server.app, bystander);
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await fromAnywhere('/public/login', { username: attempt % 2 ? username.toUpperCase() : username, password: `Wrong-Password-${attempt}` });
      expect(response.statusCode).toBe(400);
    }
    const locked = await fromAnywhere('/public/login', { username, password: STRONG_PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(TOO_MANY);
    expect(locked.cookies).toEqual([]);
    // an unknown address locks the same way: the lock says nothing about whether the account exists
    const ghost = email('ghost');
    for (let attempt = 0; attempt < 10; attempt++) await fromAnywhere('/public/login', { username: ghost, password: 'Wrong-Password-99' });
    expect((await fromAnywhere('/public/login', { username: ghost, password: 'Wrong-Password-99' })).statusCode).toBe(429);
    expect((await fromAnywhere('/public/login', { username: bystander, password: STRONG_PASSWORD })).statusCode).toBe(200);
  });

  it('limits sign-up, resend and forgot-password to 5 and reset to 10 an hour per account, from any number of client addresses', async () => {
    // an account of its own for each call that mails: together they would also meet the inbox's share (attack-mail)
    const [username, another] = [email('limits'), email('limits-resend')];
    await createConfirmedApplicant(server.app, username);
    for (const [url, allowed, body] of [
      ['/public/forgot-password', 5, { username }],
      ['/public/resend-confirm', 5, { username: another }],
      ['/public/signup', 5, { username: email('signup-limit'), password: STRONG_PASSWORD }],
      ['/public/reset-password', 10, { username, password: OTHER_PASSWORD, confirm_password: OTHER_PASSWORD, id: 'B'.repeat(43) }],
    ] as const) {
      const statuses: number[] = [];
      for (let attempt = 0; attempt <= allowed; attempt++) statuses.push((await fromAnywhere(url, body)).statusCode);
      expect(statuses.slice(0, allowed).includes(429), url).toBe(false);
      expect(statuses[allowed], url).toBe(429);
    }
  });

  it('keeps reset links single-purpose: newest only, unexpired, for their own account, never stored in clear', async () => {
    const owner = email('reset-owner');
    const loggedIn = await createConfirmedApplicant(server.app, owner);
    const other = email('reset-other');
    await createConfirmedApplicant(server.app, other);
    await fromAnywhere('/public/forgot-password', { username: owner });
    const first = await resetLink(server, owner);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    const stored = await server.app.db.selectFrom('account_codes').select('secret_hash').where('purpose', '=', 'reset').execute();
    expect(stored.map((row) => row.secret_hash)).toContain(sha256(first));
    expect(stored.map((row) => row.secret_hash)).not.toContain(first);

    await fromAnywhere('/public/forgot-password', { username: owner });
    const second = await resetLink(server, owner, first);
    const reset = (username: string, id: string) => fromAnywhere('/public/reset-password', { username, password: OTHER_PASSWORD, confirm_password: OTHER_PASSWORD, id });
    expect((await reset(owner, first)).json().message).toBe(messages.reset_invalid); // a newer link voids the older one
    expect((await reset(other, second)).json().message).toBe(messages.reset_invalid); // not another account's link
    expect((await loggedIn.get('/api/profile')).status).toBe(200); // wrong links end no session
    await sql`update account_codes set expires_at = now() - interval '1 second' where purpose = 'reset'`.execute(server.app.db);
    expect((await reset(owner, second)).json().message).toBe(messages.reset_invalid); // expired

    await fromAnywhere('/public/forgot-password', { username: owner });
    const third = await resetLink(server, owner, second);
    expect((await reset(owner, third)).statusCode).toBe(200);
    expect((await reset(owner, third)).json().message).toBe(messages.reset_invalid); // used once
    expect((await loggedIn.get('/api/profile')).status).toBe(401);
    expect((await fromAnywhere('/public/login', { username: other, password: OTHER_PASSWORD })).statusCode).toBe(400); // the other account kept its password
  });

  it('stores confirmation codes with a keyed hash that a stolen table cannot reverse', async () => {
    const username = email('code-hash');
    await new ApiSession(server.app).post('/public/signup', { username, password: STRONG_PASSWORD });
    const code = await outboxCode(server.app, username);
    const rows = await server.app.db.selectFrom('account_codes').innerJoin('applicants', 'applicants.id', 'account_codes.applicant_id')
      .select('secret_hash').where('applicants.email', '=', username).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.secret_hash).not.toBe(code);
    expect(rows[0]!.secret_hash).not.toBe(sha256(code)); // all 10^6 unkeyed hashes would take a second to compute
  });
});

describe.each(databaseTargets())('session ids and service tokens on $name', (target) => {
  let server: TestServer;
  let counter = 0;
  const email = (label: string) => `${label}.${++counter}.${target.name}@example.org`;

  beforeAll(async () => {
    server = await startTestServerOn(target, { listen: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('makes session ids of 256 random bits, new at each login, stored only as hashes', async () => {
    const username = email('sessions');
    const api = await createConfirmedApplicant(server.app, username);
    const ids = [api.cookies.get('session')!];
    for (let login = 0; login < 24; login++) {
      const fresh = new ApiSession(server.app);
      expect((await fresh.post('/public/login', { username, password: STRONG_PASSWORD })).status).toBe(200);
      ids.push(fresh.cookies.get('session')!);
    }
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // a counter or a clock would use few symbols; 25 x 43 random base64url characters use nearly all 64
    expect(new Set(ids.join('')).size).toBeGreaterThan(55);
    const stored = (await server.app.db.selectFrom('sessions').select('id_hash').execute()).map((row) => row.id_hash);
    for (const id of ids) {
      expect(stored).not.toContain(id);
      expect(stored).toContain(sha256(id));
    }
  });

  it('refuses guessed, planted and expired session ids', async () => {
    for (let guess = 0; guess < 100; guess++) {
      const intruder = new ApiSession(server.app);
      intruder.cookies.set('session', randomToken());
      expect((await intruder.get('/api/profile')).status).toBe(401);
    }
    // session fixation: an id planted before login is not adopted
    const username = email('fixation');
    await createConfirmedApplicant(server.app, username);
    const victim = new ApiSession(server.app);
    const planted = randomToken();
    victim.cookies.set('session', planted);
    await victim.post('/public/login', { username, password: STRONG_PASSWORD });
    expect(victim.cookies.get('session')).not.toBe(planted);
    const attacker = new ApiSession(server.app);
    attacker.cookies.set('session', planted);
    expect((await attacker.get('/api/profile')).status).toBe(401);
    // the 12-hour limit holds even for a session in use
    expect((await victim.get('/api/profile')).status).toBe(200);
    const victimId = victim.cookies.get('session')!;
    await sql`update sessions set expires_at = now() - interval '1 second'`.execute(server.app.db);
    expect((await victim.get('/api/profile')).status).toBe(401);
    expect(await server.app.db.selectFrom('sessions').select('id_hash').where('id_hash', '=', sha256(victimId)).execute()).toEqual([]);
  });

  it('signs service tokens with a 256-bit secret: any change to the token, or its lapse, is refused', async () => {
    expect(server.app.serviceSecret.length).toBeGreaterThanOrEqual(43);
    const username = email('service');
    const api = await createConfirmedApplicant(server.app, username);
    await api.put('/api/answer', { first_name: 'Tokenia' });
    const id = (await server.app.db.selectFrom('applicants').select('id').where('email', '=', username).executeTakeFirstOrThrow()).id;
    const token = signServiceToken(server.app.serviceSecret, id, 60_000);
    const [payload, signature] = token.split('.') as [string, string];
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/); // HMAC-SHA256
    const view = (value: string) => server.app.inject({ method: 'GET', url: `/service/tmp-pdf?service_token=${encodeURIComponent(value)}` });
    expect((await view(token)).json().answer).toEqual({ first_name: 'Tokenia' });

    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const longer = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 365 * 86_400_000 })).toString('base64url');
    const flip = (text: string, at: number) => `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
    for (const forged of [
      `${longer}.${signature}`,
      `${payload}.${flip(signature, 0)}`,
      `${payload}.${flip(signature, 20)}`,
      `${flip(payload, 5)}.${signature}`,
      `${payload}.${signature}.extra`,
      `${payload}.${signature.slice(0, 42)}`,
      `${payload}.${signature}=`,
      `${payload}`,
      '',
      'x'.repeat(600),
    ]) {
      expect((await view(forged)).statusCode, forged).toBe(401);
    }
    // a token lapses at its expiry
    const brief = signServiceToken(server.app.serviceSecret, id, 60_000, Date.now() - 59_000);
    expect(verifyServiceToken(server.app.serviceSecret, brief, Date.now())).toBeDefined();
    expect(verifyServiceToken(server.app.serviceSecret, brief, Date.now() + 1_000)).toBeUndefined();
  });

  it('answers a guessed or altered prefill token 404', async () => {
    const token = randomToken();
    await insertPrefill(server.app.db, sha256(token), { first_name: 'Prefilled' }, new Date(Date.now() + 60_000));
    const read = (value: string) => server.app.inject({ method: 'GET', url: `/public/tmp?token=${encodeURIComponent(value)}` });
    expect((await read(token)).json()).toEqual({ answer: { first_name: 'Prefilled' } });
    for (const guess of [randomToken(), `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, sha256(token), 'short', 'x'.repeat(101), '../../etc/passwd', "' or 1=1 --"]) {
      expect((await read(guess)).statusCode, guess).toBe(404);
    }
  });
});
