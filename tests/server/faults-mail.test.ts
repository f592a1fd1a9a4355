import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import messages from '../../schemas/auth/messages.json';
import { ApiSession, STRONG_PASSWORD } from '../../support/api-session.ts';
import { confirmationCodeOf, resetLinkOf, startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';

/**
 * Faults: the mail server is in trouble. Every e-mail is a job: sign-up,
 * resend and forgot-password answer at once with a ticket, the mail is retried with
 * back-off, and /public/mail-status says "delayed" once a try failed, for a stand-in mail
 * (no such account) exactly as for a real one. The code that finally arrives works, for its
 * full window from when it was sent. SMTP_URL points at the test's TCP proxy: first at a
 * real SMTP server that answers "421 busy" until told otherwise, then at one that accepts
 * and never greets ("blackhole").
 */

let proxy: TcpProxy;
let server: TestServer;
let busy: SmtpReceiver;

beforeAll(async () => {
  busy = await startSmtpReceiver({ refusing: true });
  proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(busy.url).port) });
  // retries after 20 ms, 100 ms, 300 ms, ... instead of 2 s, 10 s, 30 s
  server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${proxy.port}`, JOB_RETRY_DELAY_MS: '20' } });
});
afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await busy?.close();
});

const statusOf = async (api: ApiSession, mail: unknown) => (await api.post<{ status: string }>('/public/mail-status', { mail })).body.status;
const untilStatus = (api: ApiSession, mail: unknown, wanted: string) =>
  until(async () => ((await statusOf(api, mail)) === wanted ? wanted : undefined), `mail ${String(mail)} to be ${wanted}`);

describe('mail while the mail server refuses', () => {
  it('answers at once, says the mail is delayed, and the code that arrives late confirms the account', async () => {
    const api = new ApiSession(server.app);
    const username = 'latecode@example.org';
    const signup = await api.post<{ message: string; mail: string }>('/public/signup', { username, password: STRONG_PASSWORD });
    expect(signup.status).toBe(200);
    expect(signup.body).toEqual({ message: messages.signup_sent.replace('{username}', username), mail: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    await untilStatus(api, signup.body.mail, 'delayed');

    // a stand-in mail (no account waits for a code) is delayed just the same: nothing tells them apart
    const unknown = await api.post<{ message: string; mail: string }>('/public/forgot-password', { username: 'nobody@example.org' });
    expect(unknown.body.message).toBe(messages.forgot_sent.replace('{username}', 'nobody@example.org'));
    await untilStatus(api, unknown.body.mail, 'delayed');

    // the mail waited past the code's first window (as if 11 minutes went by)
    await server.app.db.updateTable('account_codes').set({ expires_at: new Date(Date.now() - 60_000) }).execute();
    expect(busy.refusals).toBeGreaterThanOrEqual(2);
    busy.accept();

    const mail = await busy.waitFor(username, () => true, 30_000);
    await untilStatus(api, signup.body.mail, 'sent');
    await untilStatus(api, unknown.body.mail, 'sent');
    const code = await server.app.db.selectFrom('account_codes').select('expires_at').executeTakeFirstOrThrow();
    expect(code.expires_at.getTime()).toBeGreaterThan(Date.now() + 9 * 60_000); // the window starts when the mail goes
    const confirm = await api.post('/public/confirm', { username, code: confirmationCodeOf(mail) });
    expect(confirm.body).toMatchObject({ message: messages.confirm_success });
    expect((await api.post('/public/login', { username, password: STRONG_PASSWORD })).status).toBe(200);

    // what was sent is not kept: the mail's row holds no code any more
    const row = await server.app.db.selectFrom('mails').select(['subject', 'body', 'status', 'attempts']).where('id', '=', signup.body.mail).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ subject: null, body: null, status: 'sent' });
    expect(row.attempts).toBeGreaterThanOrEqual(2);
  });

  it('answers before a mail server that never greets has timed out, and the reset link arrives once mail works', async () => {
    await proxy.blackhole();
    const api = new ApiSession(server.app);
    const username = 'latecode@example.org';
    const forgot = await api.post<{ message: string; mail: string }>('/public/forgot-password', { username });
    expect(forgot.status).toBe(200);
    // answered while the first try still waits for a greeting (the mailer gives up after 5 s)
    expect(await statusOf(api, forgot.body.mail)).toBe('pending');
    await untilStatus(api, forgot.body.mail, 'delayed');
    await proxy.up();
    const mail = await busy.waitFor(username, () => true, 30_000);
    expect(resetLinkOf(mail)).toContain('/reset?');
    await untilStatus(api, forgot.body.mail, 'sent');
  });

  it('refuses a ticket that is not one, and does not know a made-up one', async () => {
    const api = new ApiSession(server.app);
    expect((await api.post('/public/mail-status', { mail: 'not-a-ticket' })).status).toBe(400);
    expect((await api.post('/public/mail-status', { mail: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });
});
