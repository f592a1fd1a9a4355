/**
 * The reminders' unsubscribe links as an attacker holds them: one applicant's link used on
 * another, a link altered to name another reminder, a forged one, one replayed after its
 * applicant turned reminders back on, and a cross-site post with a victim's cookies and no
 * token. Only the link's own applicant is ever unsubscribed, and only once per use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedApplicant, sessionFor } from '../../support/seed.ts';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '../../support/smtp-receiver.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { randomToken } from '../../src/server/lib/secrets.ts';

const WEEK_BEFORE = new Date('2027-01-08T15:30:00Z');
const tokenOf = (mail: ReceivedMail) => new URL(/<([^>]+)>/.exec(mail.headers['list-unsubscribe']!)![1]!).searchParams.get('token')!;

describe.each(databaseTargets())('unsubscribe links attacked on $name', (target) => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  let aToken: string;
  let bToken: string;
  let b: Awaited<ReturnType<typeof sessionFor>>;
  let a: Awaited<ReturnType<typeof sessionFor>>;

  const post = (token: string, extra: { cookie?: string; site?: string } = {}) => server.app.inject({
    method: 'POST', url: `/public/unsubscribe?token=${encodeURIComponent(token)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(extra.cookie ? { cookie: extra.cookie } : {}), ...(extra.site ? { 'sec-fetch-site': extra.site } : {}) },
    payload: 'List-Unsubscribe=One-Click',
  });
  const setting = async (session: typeof a) => (await session.get<{ reminders: boolean }>('/api/reminders')).body.reminders;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServerOn(target, { env: { SMTP_URL: smtp.url } });
    const aId = (await seedApplicant(server.app, { email: 'a@example.org', lastPage: '/about', status: 'started' })).id;
    const bId = (await seedApplicant(server.app, { email: 'b@example.org', lastPage: '/about', status: 'started' })).id;
    a = await sessionFor(server.app, aId);
    b = await sessionFor(server.app, bId);
    expect(await server.app.reminders.queueDue(WEEK_BEFORE)).toBe(2);
    aToken = tokenOf(await smtp.waitFor('a@example.org'));
    bToken = tokenOf(await smtp.waitFor('b@example.org'));
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('refuses a link altered to name another reminder, a forged one, and none at all; nobody is unsubscribed', async () => {
    const [aId, aSignature] = aToken.split('.');
    const [bId, bSignature] = bToken.split('.');
    for (const token of [`${bId}.${aSignature}`, `${aId}.${bSignature}`, `${bId}.${randomToken()}`, `${aId}.`, aId!, `${aToken}.x`, 'x'.repeat(180), '']) {
      const response = await post(token);
      expect([400, 404], token).toContain(response.statusCode);
    }
    expect((await server.app.inject({ method: 'POST', url: '/public/unsubscribe', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' })).statusCode).toBe(404);
    expect(await setting(a)).toBe(true);
    expect(await setting(b)).toBe(true);
  });

  it('a cross-site post with B\'s cookies and no token does nothing; A\'s link unsubscribes A alone', async () => {
    const cookie = [...b.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    expect((await server.app.inject({ method: 'POST', url: '/public/unsubscribe', headers: { cookie, 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' })).statusCode).toBe(404);
    expect(await setting(b)).toBe(true);
    // A's link, posted with B's cookies, still names A's reminder only
    expect((await post(aToken, { cookie, site: 'cross-site' })).statusCode).toBe(200);
    expect(await setting(a)).toBe(false);
    expect(await setting(b)).toBe(true);
    // a body other than the one-click field is refused
    const wrongBody = await server.app.inject({ method: 'POST', url: `/public/unsubscribe?token=${bToken}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=Everyone' });
    expect(wrongBody.statusCode).toBe(400);
    expect(await setting(b)).toBe(true);
  });

  it('replayed after A turned reminders back on, A\'s spent link is refused and A stays subscribed', async () => {
    expect((await a.put('/api/reminders', { reminders: true })).body).toEqual({ reminders: true });
    const replay = await post(aToken);
    expect(replay.statusCode).toBe(410);
    expect(replay.json().code).toBe('UNSUBSCRIBE_SPENT');
    expect(await setting(a)).toBe(true);
  });

  it('refuses an oversized form or JSON body behind a good token with 413, and unsubscribes nobody', async () => {
    for (const [type, payload] of [
      ['application/x-www-form-urlencoded', `List-Unsubscribe=One-Click&x=${'y'.repeat(4096)}`],
      ['multipart/form-data; boundary=b', `--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n${'y'.repeat(4096)}\r\n--b--\r\n`],
      ['application/json', JSON.stringify({ 'List-Unsubscribe': 'One-Click', x: 'y'.repeat(300 * 1024) })],
    ]) {
      const response = await server.app.inject({ method: 'POST', url: `/public/unsubscribe?token=${bToken}`, headers: { 'content-type': type! }, payload });
      expect([type, response.statusCode, response.json().code]).toEqual([type, 413, 'BODY_TOO_LARGE']);
    }
    expect(await setting(b)).toBe(true);
  });

  it('refuses a link whose reminder went with a deleted account', async () => {
    await server.app.db.deleteFrom('applicants').where('email', '=', 'b@example.org').execute();
    const response = await post(bToken);
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('UNSUBSCRIBE_INVALID');
  });
});
