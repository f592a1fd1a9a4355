import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import messages from '../../schemas/auth/messages.json';
import errors from '../../schemas/text/errors.json';
import { ApiSession, STRONG_PASSWORD, outboxCode, outboxMail } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServer, startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';

describe.each(databaseTargets())('accounts on $name', (target) => {
  let server: TestServer;
  let counter = 0;
  const email = (label: string) => `${label}.${++counter}.${target.name}@example.org`;

  beforeAll(async () => {
    server = await startTestServerOn(target, { listen: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('sign-up', () => {
    it('refuses malformed e-mail and weak passwords with the schema messages', async () => {
      const api = new ApiSession(server.app);
      const badEmail = await api.post('/public/signup', { username: 'not-an-email', password: STRONG_PASSWORD });
      expect(badEmail.status).toBe(400);
      expect(badEmail.body.errors).toEqual({ username: ['Your email address must be valid.'] });

      const weak = await api.post('/public/signup', { username: email('weak'), password: 'short' });
      expect(weak.status).toBe(400);
      expect((weak.body.errors as Record<string, string[]>).password).toEqual([
        'At least 12 characters', 'At least one uppercase letter', 'At least one number', 'At least one special character',
      ]);

      const padded = await api.post('/public/signup', { username: email('padded'), password: ` ${STRONG_PASSWORD}` });
      expect((padded.body.errors as Record<string, string[]>).password).toEqual(['No leading or trailing spaces']);

      const common = await api.post('/public/signup', { username: email('common'), password: 'Password1234!' });
      expect(common.status).toBe(400);
      expect(common.body.message).toBe(messages.password_common);

      const tooLong = await api.post('/public/signup', { username: email('long'), password: `Aa1!${'x'.repeat(130)}` });
      expect(tooLong.status).toBe(400);

      const notJsonShape = await api.post('/public/signup', ['username']);
      expect(notJsonShape.status).toBe(400);
    });

    it('answers a new and an existing address the same way, and mails the owner', async () => {
      const api = new ApiSession(server.app);
      const existing = email('existing');
      await createConfirmedApplicant(server.app, existing);
      const fresh = email('fresh');
      const forNew = await api.post('/public/signup', { username: fresh, password: STRONG_PASSWORD });
      const forExisting = await api.post('/public/signup', { username: existing, password: STRONG_PASSWORD });
      expect(forExisting.status).toBe(forNew.status);
      expect(Object.keys(forExisting.body)).toEqual(Object.keys(forNew.body));
      expect(forExisting.body.message).toBe(String(forNew.body.message).replace(fresh, existing));
      const mail = await outboxMail(server.app, existing);
      expect(mail.subject).toMatch(/tried to create/);
    });

    it('stores the password with argon2id, never in clear', async () => {
      const address = email('hash');
      await new ApiSession(server.app).post('/public/signup', { username: address, password: STRONG_PASSWORD });
      // the account is made after the answer, with its mail: the mailed code says it is there
      const code = await outboxCode(server.app, address);
      const row = await server.app.db.selectFrom('applicants').select('password_hash').where('email', '=', address).executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      const stored = await server.app.db.selectFrom('account_codes').select('secret_hash').execute();
      expect(stored.map((item) => item.secret_hash)).not.toContain(code);
    });
  });

  describe('confirmation', () => {
    it('needs exactly 6 digits, refuses wrong codes and voids the code after 5 wrong tries', async () => {
      const api = new ApiSession(server.app);
      const address = email('confirm');
      await api.post('/public/signup', { username: address, password: STRONG_PASSWORD });
      const code = await outboxCode(server.app, address);

      const malformed = await api.post('/public/confirm', { username: address, code: '12345' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.message).toBe('The confirmation code must be exactly 6 numbers.');

      const wrong = code === '000000' ? '111111' : '000000';
      for (let attempt = 1; attempt <= 4; attempt++) {
        const response = await api.post('/public/confirm', { username: address, code: wrong });
        expect(response.status).toBe(400);
        expect(response.body.message).toBe(messages.confirm_invalid);
      }
      const fifth = await api.post('/public/confirm', { username: address, code: wrong });
      expect(fifth.body.message).toBe(messages.confirm_too_many);
      // the right code no longer works
      const late = await api.post('/public/confirm', { username: address, code });
      expect(late.status).toBe(400);
      expect(late.body.message).toBe(messages.confirm_too_many);

      // a new code does
      const resend = await api.post('/public/resend-confirm', { username: address });
      expect(resend.status).toBe(200);
      const fresh = await until(async () => {
        const latest = await outboxCode(server.app, address);
        return latest === code ? undefined : latest;
      }, 'a new confirmation code');
      const ok = await api.post('/public/confirm', { username: address, code: fresh });
      expect(ok.status).toBe(200);
      expect(ok.body.message).toBe(messages.confirm_success);
      // single use
      const again = await api.post('/public/confirm', { username: address, code: fresh });
      expect(again.status).toBe(400);
    });

    it('refuses an expired code with its own message', async () => {
      const api = new ApiSession(server.app);
      const address = email('expired');
      await api.post('/public/signup', { username: address, password: STRONG_PASSWORD });
      const code = await outboxCode(server.app, address);
      await sql`update account_codes set expires_at = now() - interval '1 minute'`.execute(server.app.db);
      const response = await api.post('/public/confirm', { username: address, code });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(messages.confirm_expired);
    });

    it('answers an unknown account exactly like a wrong code', async () => {
      const api = new ApiSession(server.app);
      const unknown = await api.post('/public/confirm', { username: email('nobody'), code: '123456' });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ message: messages.confirm_invalid, code: 'CODE_INVALID', errors: { code: [messages.confirm_invalid] } });
    });

    it('resend answers the same for unknown, unconfirmed and confirmed accounts', async () => {
      const api = new ApiSession(server.app);
      const confirmed = email('resend-confirmed');
      await createConfirmedApplicant(server.app, confirmed);
      const unconfirmed = email('resend-unconfirmed');
      await api.post('/public/signup', { username: unconfirmed, password: STRONG_PASSWORD });
      await outboxMail(server.app, unconfirmed);
      const unknown = email('resend-unknown');
      const replies = await Promise.all([unknown, unconfirmed, confirmed].map((address) => api.post('/public/resend-confirm', { username: address })));
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200]);
      expect(replies.map((reply, index) => String(reply.body.message).replace([unknown, unconfirmed, confirmed][index]!, 'X')))
        .toEqual(Array(3).fill(messages.resend_sent.replace('{username}', 'X')));
      const bad = await api.post('/public/resend-confirm', { username: 'nope' });
      expect(bad.body.message).toBe('You must provide a valid email address to resend a confirmation code.');
    });
  });

  describe('login and sessions', () => {
    it('refuses an unconfirmed account with a message that leads to confirmation', async () => {
      const api = new ApiSession(server.app);
      const address = email('unconfirmed');
      await api.post('/public/signup', { username: address, password: STRONG_PASSWORD });
      // the account is made in the background with its mail (answers take the same time either way)
      await outboxMail(server.app, address);
      const response = await api.post('/public/login', { username: address, password: STRONG_PASSWORD });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('USER_NOT_CONFIRMED');
      // no session: only the sign-up's own proof of this browser is kept
      expect([...api.cookies.keys()].filter((name) => name !== 'signup')).toEqual([]);
    });

    it('answers a wrong password and an unknown account identically', async () => {
      const api = new ApiSession(server.app);
      const address = email('wrongpw');
      await createConfirmedApplicant(server.app, address);
      const wrong = await api.post('/public/login', { username: address, password: 'Wrong-Password-99' });
      const unknown = await api.post('/public/login', { username: email('ghost'), password: 'Wrong-Password-99' });
      expect(wrong.status).toBe(400);
      expect(unknown.status).toBe(400);
      expect(wrong.body).toEqual(unknown.body);
      expect(wrong.body.message).toBe(messages.login_failed);
      const invalid = await api.post('/public/login', { username: 'x', password: '' });
      expect(invalid.body.errors).toEqual({ username: ['Please provide a valid email address.'], password: ['Password is required.'] });
    });

    it('starts a new HttpOnly session at each login and counts the logins in the profile', async () => {
      const address = email('login');
      const api = await createConfirmedApplicant(server.app, address);
      const firstId = api.cookies.get('session');
      expect(firstId).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
      expect(api.cookies.get('logged_in')).toBe('1');

      const profile = await api.get('/api/profile');
      expect(profile.status).toBe(200);
      expect(profile.body).toMatchObject({ username: address, answer: {}, document_answer: {}, web_status: [], last_page: null });
      expect(profile.body.successful_login).toHaveLength(1);

      const login = await api.post('/public/login', { username: address.toUpperCase(), password: STRONG_PASSWORD });
      expect(login.status).toBe(200);
      const setCookie = ([] as string[]).concat(login.headers['set-cookie'] as string[]);
      expect(setCookie.find((cookie) => cookie.startsWith('session='))).toMatch(/HttpOnly/);
      expect(setCookie.find((cookie) => cookie.startsWith('session='))).toMatch(/SameSite=Lax/);
      expect(api.cookies.get('session')).not.toBe(firstId);
      const again = await api.get('/api/profile');
      expect(again.body.successful_login).toHaveLength(2);

      // the old session id is gone
      const stale = new ApiSession(server.app);
      stale.cookies.set('session', firstId!);
      expect((await stale.get('/api/profile')).status).toBe(401);
    });

    it('answers 401 with the session-invalid message without a session, and after logout', async () => {
      const anonymous = new ApiSession(server.app);
      const none = await anonymous.get('/api/profile');
      expect(none.status).toBe(401);
      expect(none.body.message).toBe(errors.session_invalid);
      anonymous.cookies.set('session', 'forged-value');
      expect((await anonymous.get('/api/profile')).status).toBe(401);

      const api = await createConfirmedApplicant(server.app, email('logout'));
      const id = api.cookies.get('session')!;
      const logout = await api.get('/api/logout');
      expect(logout.status).toBe(200);
      expect(api.cookies.has('session')).toBe(false);
      const replay = new ApiSession(server.app);
      replay.cookies.set('session', id);
      expect((await replay.get('/api/profile')).status).toBe(401);
    });

    it('ends a session that has been idle longer than the inactivity timeout', async () => {
      const api = await createConfirmedApplicant(server.app, email('idle'));
      expect((await api.get('/api/profile')).status).toBe(200);
      await sql`update sessions set last_seen_at = now() - interval '1 day'`.execute(server.app.db);
      expect((await api.get('/api/profile')).status).toBe(401);
    });

    it('keep-alive needs a session', async () => {
      expect((await new ApiSession(server.app).post('/api/keep-alive')).status).toBe(401);
      const api = await createConfirmedApplicant(server.app, email('keepalive'));
      expect((await api.post('/api/keep-alive')).status).toBe(200);
    });

    it('locks login for the account after 10 wrong passwords, answering 429 with a message', async () => {
      const api = new ApiSession(server.app);
      const address = email('lockout');
      await createConfirmedApplicant(server.app, address);
      for (let attempt = 0; attempt < 10; attempt++) {
        expect((await api.post('/public/login', { username: address, password: 'Wrong-Password-99' })).status).toBe(400);
      }
      const locked = await api.post('/public/login', { username: address, password: STRONG_PASSWORD });
      expect(locked.status).toBe(429);
      expect(locked.body.message).toMatch(/^Too many attempts\. Please wait \d+ minutes and try again\.$/);
      expect(locked.headers['retry-after']).toBeDefined();
    });
  });

  describe('forgotten password', () => {
    it('answers known and unknown addresses alike and limits requests per address', async () => {
      const api = new ApiSession(server.app);
      const known = email('forgot-known');
      await createConfirmedApplicant(server.app, known);
      const unknown = email('forgot-unknown');
      const a = await api.post('/public/forgot-password', { username: known });
      const b = await api.post('/public/forgot-password', { username: unknown });
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(String(a.body.message).replace(known, 'X')).toBe(String(b.body.message).replace(unknown, 'X'));
      for (let attempt = 0; attempt < 4; attempt++) await api.post('/public/forgot-password', { username: unknown });
      const limited = await api.post('/public/forgot-password', { username: unknown });
      expect(limited.status).toBe(429);
    });

    it('resets with the e-mailed link once, ends every session, and refuses bad input', async () => {
      const address = email('reset');
      const loggedIn = await createConfirmedApplicant(server.app, address);
      const api = new ApiSession(server.app);
      await api.post('/public/forgot-password', { username: address });
      const mail = await until(async () => {
        const latest = await outboxMail(server.app, address);
        return latest.body.includes('/reset?') ? latest : undefined;
      }, 'the reset mail');
      const link = new URL(/(http\S+\/reset\?\S+)/.exec(mail.body)![1]!);
      expect(link.searchParams.get('username')).toBe(address);
      const id = link.searchParams.get('id')!;
      const newPassword = 'Quiet-Lantern-4471?';

      const mismatch = await api.post('/public/reset-password', { username: address, password: newPassword, confirm_password: 'other', id });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.errors).toEqual({ confirm_password: ['passwords must match'] });
      const forged = await api.post('/public/reset-password', { username: address, password: newPassword, confirm_password: newPassword, id: 'A'.repeat(43) });
      expect(forged.body.message).toBe(messages.reset_invalid);

      const ok = await api.post('/public/reset-password', { username: address, password: newPassword, confirm_password: newPassword, id });
      expect(ok.status).toBe(200);
      expect(ok.body.message).toBe(messages.reset_success);
      expect((await loggedIn.get('/api/profile')).status).toBe(401);
      const reuse = await api.post('/public/reset-password', { username: address, password: newPassword, confirm_password: newPassword, id });
      expect(reuse.body.message).toBe(messages.reset_invalid);

      expect((await api.post('/public/login', { username: address, password: STRONG_PASSWORD })).status).toBe(400);
      expect((await api.post('/public/login', { username: address, password: newPassword })).status).toBe(200);
    });
  });

  describe('request safety', () => {
    it('refuses cross-site writes and non-JSON bodies', async () => {
      const api = await createConfirmedApplicant(server.app, email('csrf'));
      const crossSite = await api.post('/public/login', { username: 'a@b.co', password: 'x' }, { 'sec-fetch-site': 'cross-site' });
      expect(crossSite.status).toBe(403);
      expect(crossSite.body.message).toBe(messages.cross_site);
      const foreignOrigin = await server.app.inject({
        method: 'POST', url: '/api/keep-alive', payload: '{}',
        headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie: `session=${api.cookies.get('session')}` },
      });
      expect(foreignOrigin.statusCode).toBe(403);
      const crossLogout = await api.get('/api/logout', { 'sec-fetch-site': 'cross-site' });
      expect(crossLogout.status).toBe(403);
      expect((await api.get('/api/profile')).status).toBe(200); // still logged in
      const form = await server.app.inject({
        method: 'POST', url: '/public/login', payload: 'username=a%40b.co&password=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      });
      expect(form.statusCode).toBe(415);
      expect(form.json().message).toBe(messages.json_required);
    });

    it('sends security headers with a strict Content-Security-Policy', async () => {
      const response = await server.app.inject({ method: 'GET', url: '/about' });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['strict-transport-security']).toBeUndefined(); // http: no HSTS
      expect(response.headers['x-powered-by']).toBeUndefined();
      const api = await server.app.inject({ method: 'GET', url: '/api/profile' });
      expect(api.headers['cache-control']).toBe('no-store');
    });

    it('reports the database, the converters and the Node.js version on /healthz', async () => {
      const response = await server.app.inject({ method: 'GET', url: '/healthz' });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.database).toEqual({ kind: target.name, ok: true });
      expect(body.converters).toHaveProperty('chromium.available');
      expect(body.converters).toHaveProperty('libreoffice.available');
      expect(body.node).toBe(process.version);
    });
  });
});

describe('behind https', () => {
  it('marks cookies Secure with the __Host- prefix and sends HSTS', async () => {
    const server = await startTestServer({ listen: false, env: { PUBLIC_URL: 'https://apply.example.edu' } });
    try {
      const address = 'secure@example.org';
      const api = new ApiSession(server.app);
      await api.post('/public/signup', { username: address, password: STRONG_PASSWORD });
      await api.post('/public/confirm', { username: address, code: await outboxCode(server.app, address) });
      const login = await api.post('/public/login', { username: address, password: STRONG_PASSWORD });
      const cookies = ([] as string[]).concat(login.headers['set-cookie'] as string[]);
      expect(cookies.find((cookie) => cookie.startsWith('__Host-session='))).toMatch(/Secure/);
      expect(cookies.find((cookie) => cookie.startsWith('logged_in='))).toMatch(/Secure/);
      const page = await server.app.inject({ method: 'GET', url: '/about' });
      expect(page.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    } finally {
      await server.close();
    }
  });
});
