/**
 * Deadline reminders end to end, through a real SMTP server, on a controlled clock: the
 * selection runs at a set time (what the periodic selection does at its own), the sending
 * jobs run on the server's queue. The deadline a week away, then a day away: each applicant
 * it is due to gets each mail once, in their language, with one-click unsubscribe; nobody
 * who submitted, stopped reminders or never started gets one; a one-click POST stops them.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import spanishReminders from '../../schemas/i18n/es/reminders.json';
import spanishFrame from '../../schemas/i18n/es/text/frame.json';
import reminders from '../../schemas/reminders.json';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { seedApplicant, sessionFor } from '../../support/seed.ts';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '../../support/smtp-receiver.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { builtCommand } from '../helpers/built-server.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** 09:30 in Chicago, seven days and one day before January 15, and a week before March 1. */
export const WEEK_BEFORE = new Date('2027-01-08T15:30:00Z');
export const DAY_BEFORE = new Date('2027-01-14T15:30:00Z');
export const WEEK_BEFORE_MARCH = new Date('2027-02-22T15:30:00Z');

const subjectOf = (file: typeof reminders, rule: string) => file.rules.find((item) => item.id === rule)!.subject.replace('{short_name}', 'CHU');

/** The link in a header `<...>` or the first address after `prefix` in a text. */
export const oneClickUrl = (mail: ReceivedMail) => /<([^>]+)>/.exec(mail.headers['list-unsubscribe'] ?? '')![1]!;

describe.each(databaseTargets())('deadline reminders on $name', (target) => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  const people: Record<string, string> = {};

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServerOn(target, { env: { SMTP_URL: smtp.url } });
    const seed = async (name: string, state: Parameters<typeof seedApplicant>[1]) => {
      people[name] = (await seedApplicant(server.app, state)).id;
    };
    await seed('ada', { email: 'ada@example.org', answers: { first_name: 'Ada' }, lastPage: '/education-ug', status: 'started' });
    await seed('blanca', { email: 'blanca@example.org', language: 'es', answers: { first_name: 'Blanca' }, lastPage: '/final-steps', status: 'validating' });
    await seed('done', { email: 'done@example.org', answers: completeApplication(), status: 'submitted' });
    await seed('never', { email: 'never@example.org' });
    await seed('unconfirmed', { email: 'unconfirmed@example.org', confirmed: false });
    await seed('quiet', { email: 'quiet@example.org', lastPage: '/about', status: 'started' });
    await (await sessionFor(server.app, people.quiet!)).put('/api/reminders', { reminders: false });
    // a first name that tries to add a header: it reaches only the body, on one line
    await seed('mallory', { email: 'mallory@example.org', answers: { first_name: 'M\r\nBcc: victim@example.org\r\nSubject: hacked' }, lastPage: '/about', status: 'started' });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  /** the reminders that arrived (the submission mail of the one who submitted is not one) */
  const reminderMails = () => smtp.inbox.filter((mail) => mail.headers['list-unsubscribe']);
  const sentRows = () => server.app.db.selectFrom('reminders').select(['applicant_id', 'rule_id', 'status']).where('status', '=', 'sent').execute();

  it('the dry run names who would get the week\'s reminder, and records nothing', async () => {
    const plan = await server.app.reminders.plan(WEEK_BEFORE);
    expect(plan).toMatchObject({ rule: 'week-before', deadline: 'deadline-jan', days_left: 7 });
    expect(plan.applicants.map((item) => item.email)).toEqual(['ada@example.org', 'blanca@example.org', 'mallory@example.org']);
    expect(await server.app.reminders.plan(new Date('2027-01-09T03:00:00Z'))).toMatchObject({ nothing: 'outside the sending hours' }); // 21:00
    expect(await server.app.db.selectFrom('reminders').select('id').execute()).toEqual([]);
  });

  it('npm run reminders -- --dry-run says the same beside the running server, and sends nothing', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, builtCommand('reminders', '--dry-run', '--at', WEEK_BEFORE.toISOString()), {
      cwd: ROOT, env: { ...process.env, DATABASE_URL: server.config.databaseUrl ?? '', DATA_DIR: server.config.dataDir, LOG_LEVEL: 'warn' },
    });
    expect(stdout).toContain('rule week-before for deadline-jan (2027-01-15, 7 days left) would go to 3 applicants:');
    expect(stdout).toContain('  blanca@example.org  es  last on /final-steps');
    expect(stdout).not.toContain('done@example.org');
    expect(await server.app.db.selectFrom('reminders').select('id').execute()).toEqual([]);
  });

  it('a week before the deadline: one mail to each, in their language, with one-click unsubscribe', async () => {
    expect(await server.app.reminders.queueDue(WEEK_BEFORE)).toBe(3);
    // the next periods' selections at the same time find nothing new
    expect(await server.app.reminders.queueDue(new Date(WEEK_BEFORE.getTime() + 5 * 60_000))).toBe(0);
    const ada = await smtp.waitFor('ada@example.org');
    expect(ada.subject).toBe(subjectOf(reminders, 'week-before'));
    expect(ada.text).toContain('Hello Ada,');
    expect(ada.text).toContain('January 15: 7 days from now');
    expect(ada.text).toContain('on Your Education');
    expect(ada.text).toContain(`${server.url}/login\n`);
    expect(ada.text).toMatch(new RegExp(`${server.url}/unsubscribe\\?token=[\\w.-]+`));
    expect(ada.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(oneClickUrl(ada)).toMatch(new RegExp(`^${server.url}/public/unsubscribe\\?token=[\\w.-]+$`));
    expect(ada.headers['message-id']).toMatch(/^<reminder-[0-9a-f-]{36}@localhost>$/);

    const blanca = await smtp.waitFor('blanca@example.org');
    expect(blanca.subject).toBe(subjectOf(spanishReminders as typeof reminders, 'week-before'));
    expect(blanca.text).toContain('Hola, Blanca:');
    expect(blanca.text).toContain('15 de enero');
    expect(blanca.text).toContain(`en ${spanishFrame.steps.find((step) => step.path === '/final-steps')!.label}`);
    expect(blanca.text).toContain(`${server.url}/login?lang=es`);

    const mallory = await smtp.waitFor('mallory@example.org');
    expect(mallory.envelopeTo).toEqual(['mallory@example.org']);
    expect(mallory.headers.bcc).toBeUndefined();
    expect(mallory.subject).toBe(subjectOf(reminders, 'week-before'));
    expect(mallory.text).toContain('Hello M Bcc: victim@example.org Subject: hacked,');
    await expect.poll(async () => (await sentRows()).length).toBe(3);
    expect(reminderMails().map((mail) => mail.to).sort()).toEqual(['ada@example.org', 'blanca@example.org', 'mallory@example.org']);
  });

  it('a day before: the day\'s mail once each; a one-click POST, with no cookie, stops the next', async () => {
    expect(await server.app.reminders.queueDue(DAY_BEFORE)).toBe(3);
    const ada = await smtp.waitFor('ada@example.org');
    expect(ada.subject).toBe(subjectOf(reminders, 'day-before'));
    await smtp.waitFor('blanca@example.org');
    const mallory = await smtp.waitFor('mallory@example.org');
    await expect.poll(async () => (await sentRows()).length).toBe(6);

    // the mail provider's one-click POST (RFC 8058): a form body, no cookie, from no browser
    const oneClick = new URL(oneClickUrl(mallory));
    const stopped = await server.app.inject({
      method: 'POST', url: `${oneClick.pathname}${oneClick.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click',
    });
    expect(stopped.statusCode).toBe(200);
    // posted again (a provider's retry): the same answer
    const again = await server.app.inject({
      method: 'POST', url: `${oneClick.pathname}${oneClick.search}`,
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--xyz--\r\n',
    });
    expect(again.statusCode).toBe(200);

    const before = reminderMails().length;
    expect(await server.app.reminders.queueDue(WEEK_BEFORE_MARCH)).toBe(2);
    await smtp.waitFor('ada@example.org');
    await smtp.waitFor('blanca@example.org');
    await expect.poll(async () => (await sentRows()).length).toBe(8);
    expect(reminderMails().slice(before).map((mail) => mail.to).sort()).toEqual(['ada@example.org', 'blanca@example.org']);
    const mine = await (await sessionFor(server.app, people.mallory!)).get<{ reminders: boolean }>('/api/reminders');
    expect(mine.body).toEqual({ reminders: false });
  });

  it('reminds nobody twice within the spacing, whatever the rule', async () => {
    const spaced = await seedApplicant(server.app, { email: 'spaced@example.org', lastPage: '/about', status: 'started' });
    // reminded two days before the day-before rule for March comes due (at most one every 3 days)
    await server.app.db.insertInto('reminders').values({ applicant_id: spaced.id, rule_id: 'week-before', deadline_id: 'deadline-mar', due_at: new Date('2027-02-26T15:30:00Z') }).execute();
    const plan = await server.app.reminders.plan(new Date('2027-02-28T15:30:00Z'));
    expect(plan).toMatchObject({ rule: 'day-before', deadline: 'deadline-mar' });
    expect(plan.applicants.map((item) => item.email)).toContain('ada@example.org'); // reminded six days before
    expect(plan.applicants.map((item) => item.email)).not.toContain('spaced@example.org');
    expect((await server.app.reminders.plan(new Date('2027-03-01T15:30:00Z'))).applicants.map((item) => item.email)).toContain('spaced@example.org');
    await server.app.db.deleteFrom('applicants').where('id', '=', spaced.id).execute();
  });

  it('sends nothing to whoever submitted, stopped reminders, never started or never confirmed', async () => {
    const reminded = new Set(reminderMails().map((mail) => mail.to));
    for (const email of ['done@example.org', 'never@example.org', 'unconfirmed@example.org', 'quiet@example.org']) expect(reminded.has(email), email).toBe(false);
  });

  it('a reminder selected before its applicant submitted is not sent, nor one whose account was deleted', async () => {
    const late = await seedApplicant(server.app, { email: 'late@example.org', lastPage: '/final-steps', status: 'started' });
    const gone = await seedApplicant(server.app, { email: 'gone@example.org', lastPage: '/about', status: 'started' });
    await server.app.jobs.stop();
    try {
      expect(await server.app.reminders.queueDue(new Date('2027-02-23T15:30:00Z'))).toBe(2);
      await server.app.db.updateTable('applicants').set({ submitted_at: new Date() }).where('id', '=', late.id).execute();
      await server.app.db.deleteFrom('applicants').where('id', '=', gone.id).execute();
    } finally {
      server.app.jobs.start();
    }
    await expect.poll(async () => (await server.app.db.selectFrom('reminders').select(['status', 'reason']).where('applicant_id', '=', late.id).execute()))
      .toEqual([{ status: 'skipped', reason: 'submitted' }]);
    await expect.poll(async () => (await server.app.db.selectFrom('jobs').select('status').where('kind', '=', 'reminder').where('status', 'in', ['queued', 'running']).execute()).length).toBe(0);
    expect(smtp.inbox.some((mail) => mail.to === 'late@example.org' || mail.to === 'gone@example.org')).toBe(false);
  });
});
