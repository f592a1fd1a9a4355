import { afterEach, describe, expect, it } from 'vitest';
import { attemptLimits } from '../../src/server/accounts/attempt-limits.ts';
import { ApiSession, STRONG_PASSWORD } from '../../support/api-session.ts';
import { confirmationCodeOf, startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';

/**
 * Mail is limited per inbox, not per spelling: one inbox has endless spellings (case,
 * plus-addressing, Gmail's dots), and each spelling is an account of its own. Forty sign-ups
 * with spellings of one inbox, from a client with no account, send at most the inbox's
 * hourly share; the per-network limit bounds what one client sends to many inboxes. Accounts
 * stay free: two applicants on plus-spellings of one inbox (twins) both sign up and confirm.
 */

describe.each(databaseTargets())('mail per inbox on $name', (target) => {
  let server: TestServer | undefined;
  let smtp: SmtpReceiver | undefined;
  afterEach(async () => {
    await server?.close();
    await smtp?.close();
    server = smtp = undefined;
  });

  /** Every mail job ended (sent or given up): what the receiver holds is all there will be. */
  const mailsSettled = (running: TestServer) => until(async () => {
    const waiting = await running.app.db.selectFrom('mails').select('id').where('status', '=', 'queued').executeTakeFirst();
    return waiting ? undefined : true;
  }, 'every mail job ended');

  it('twins on plus-spellings of one inbox both sign up and confirm; forty more spellings send at most the inbox\'s share', async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServerOn(target, { listen: false, env: { SMTP_URL: smtp.url } });
    const inbox = (address: string) => address.toLowerCase().replace(/\+[^@]*/, '');

    // a family with one inbox: both accounts are allowed, each confirmed by its own code
    for (const twin of ['rivera.family+ana@example.org', 'rivera.family+luis@example.org']) {
      const session = new ApiSession(server.app);
      expect((await session.post('/public/signup', { username: twin, password: STRONG_PASSWORD })).status).toBe(200);
      const code = confirmationCodeOf(await smtp.waitFor(twin));
      expect((await session.post('/public/confirm', { username: twin, code })).status).toBe(200);
      expect((await session.post('/public/login', { username: twin, password: STRONG_PASSWORD })).status).toBe(200);
    }

    // an attacker's forty spellings of the same inbox, one client, no account
    const spellings = Array.from({ length: 40 }, (_, index) => (index % 2 ? `Rivera.Family+${index}@Example.org` : `rivera.family+x${index}@example.org`));
    const replies = [];
    for (const username of spellings) replies.push((await new ApiSession(server.app).post('/public/signup', { username, password: STRONG_PASSWORD })).status);
    await mailsSettled(server);
    const toInbox = smtp.inbox.filter((mail) => inbox(mail.to) === 'rivera.family@example.org');
    // before: 42, one a sign-up; now the twins' two and the rest of the hour's share
    expect(toInbox.length).toBeLessThanOrEqual(attemptLimits.mailInbox.max);
    expect(attemptLimits.mailInbox.max).toBe(10);
    expect(replies.filter((status) => status === 200)).toHaveLength(attemptLimits.mailInbox.max - 2);
    expect(replies.filter((status) => status === 429)).toHaveLength(40 - (attemptLimits.mailInbox.max - 2));
    // a resend and a forgotten password to the same inbox count too
    expect((await new ApiSession(server.app).post('/public/resend-confirm', { username: 'RIVERA.FAMILY+ana@example.org' })).status).toBe(429);
    expect((await new ApiSession(server.app).post('/public/forgot-password', { username: 'rivera.family+luis@example.org' })).status).toBe(429);
    // another inbox is not held back by it
    const other = new ApiSession(server.app);
    expect((await other.post('/public/signup', { username: 'someone.else@example.org', password: STRONG_PASSWORD })).status).toBe(200);
    await smtp.waitFor('someone.else@example.org');
  }, 240_000);

  it('counts Gmail\'s dots and case as one inbox, and a client network\'s calls whatever inboxes they name', async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServerOn(target, { listen: false, env: { SMTP_URL: smtp.url, MAIL_PER_NETWORK_PER_HOUR: '12' } });
    const dotted = ['a.n.a.rivera@gmail.com', 'anarivera+1@googlemail.com', 'AnaRivera@gmail.com', 'ana.rivera+2@gmail.com'];
    const statuses = [];
    for (let round = 0; round < 3; round++) {
      for (const username of dotted) statuses.push((await new ApiSession(server.app).post('/public/signup', { username, password: STRONG_PASSWORD })).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(attemptLimits.mailInbox.max);
    // the client network's twelve calls an hour: spent above; a thirteenth to a fresh inbox is refused
    expect((await new ApiSession(server.app).post('/public/signup', { username: 'fresh.inbox@example.org', password: STRONG_PASSWORD })).status).toBe(429);
    await mailsSettled(server);
    expect(smtp.inbox.filter((mail) => mail.to.endsWith('@gmail.com') || mail.to.endsWith('@googlemail.com')).length).toBeLessThanOrEqual(attemptLimits.mailInbox.max);
  }, 240_000);
});
