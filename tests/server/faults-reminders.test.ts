/**
 * Reminders on PostgreSQL with more than one server, and with a server killed between
 * selecting and sending: each applicant gets each rule's mail exactly once.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { seedApplicant } from '../../support/seed.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';
import { startProcessServer, type ProcessServer } from '../helpers/process-server.ts';

const postgres = databaseTargets().find((target) => target.name === 'postgres');
const WEEK_BEFORE = new Date('2027-01-08T15:30:00Z');
const APPLICANTS = 12;

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function seedStarted(server: TestServer, label: string): Promise<string[]> {
  const emails = Array.from({ length: APPLICANTS }, (_, index) => `${label}${index}@example.org`);
  for (const email of emails) await seedApplicant(server.app, { email, lastPage: '/about', status: 'started' });
  return emails;
}

const reminderMailsTo = (smtp: SmtpReceiver) => smtp.inbox.filter((mail) => mail.headers['list-unsubscribe']).map((mail) => mail.to).sort();

describe.skipIf(!postgres)('reminders with several servers on one PostgreSQL', () => {
  it('two servers selecting at the same moment and both sending: each applicant gets the mail once', async () => {
    const database = await postgres!.create();
    const smtp = await startSmtpReceiver();
    const start = () => startTestServer({ databaseUrl: database.url, env: { SMTP_URL: smtp.url } });
    const [a, b] = await Promise.all([start(), start()]);
    cleanups.push(database.drop, smtp.close, a.close, b.close);
    const emails = await seedStarted(a, 'two');

    const [onA, onB] = await Promise.all([a.app.reminders.queueDue(WEEK_BEFORE), b.app.reminders.queueDue(WEEK_BEFORE)]);
    expect(onA + onB).toBe(APPLICANTS);
    await expect.poll(() => reminderMailsTo(smtp).length, { timeout: 30_000 }).toBe(APPLICANTS);
    const sent = await until(async () => {
      const rows = await a.app.db.selectFrom('reminders').select(['status', 'attempts']).execute();
      return rows.every((row) => row.status === 'sent') ? rows : undefined;
    }, 'every reminder recorded as sent');
    expect(sent).toHaveLength(APPLICANTS);
    expect(reminderMailsTo(smtp)).toEqual([...emails].sort());
    // later selections, on either server, find nothing more
    expect(await b.app.reminders.queueDue(new Date(WEEK_BEFORE.getTime() + 10 * 60_000))).toBe(0);
    expect(await a.app.reminders.queueDue(new Date(WEEK_BEFORE.getTime() + 20 * 60_000))).toBe(0);
  }, 120_000);

  it('a server killed after selecting, with mails in flight: after the restart each mail goes once', async () => {
    const database = await postgres!.create();
    // the receiver reads each message and answers none until released: the killed server's were never accepted
    const smtp = await startSmtpReceiver({ holding: true });
    cleanups.push(database.drop, smtp.close);
    // a server that runs no jobs, to seed and to queue the selection at the test's time
    const seeder = await startTestServer({ databaseUrl: database.url, listen: false, env: { RUN_JOBS: 'false' } });
    cleanups.push(seeder.close);
    const emails = await seedStarted(seeder, 'kill');
    let server: ProcessServer | undefined = await startProcessServer({ databaseUrl: database.url, env: { SMTP_URL: smtp.url, JOB_LOCK_MS: '3000' } });
    cleanups.push(async () => server?.close());

    // the periodic selection, queued for the test's time: the process server takes it and selects
    await seeder.app.jobs.enqueueOnce('reminders', { at: WEEK_BEFORE.toISOString() }, 'reminders:test');
    await until(async () => (smtp.held >= 2 ? true : undefined), 'two reminders in flight (the lane runs two)', 30_000);
    await server.kill();

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    cleanups.push(() => client.end());
    const states = (await client.query<{ status: string; count: string }>('select status, count(*) from reminders group by status order by status')).rows;
    // selected and recorded: some in flight when killed, the rest still waiting to be sent
    expect(states.reduce((sum, row) => sum + Number(row.count), 0)).toBe(APPLICANTS);
    expect(states.find((row) => row.status === 'sending')?.count).toBe('2');
    expect(reminderMailsTo(smtp)).toEqual([]);

    smtp.release();
    await server.restart();
    await expect.poll(() => reminderMailsTo(smtp).length, { timeout: 60_000 }).toBe(APPLICANTS);
    await until(async () => {
      const { rows } = await client.query<{ status: string }>('select status from reminders');
      return rows.every((row) => row.status === 'sent') ? true : undefined;
    }, 'every reminder recorded as sent', 60_000);
    expect(reminderMailsTo(smtp)).toEqual([...emails].sort());
    // a job is marked done just after its reminder is recorded as sent: wait for the last one
    const jobs = await until(async () => {
      const { rows } = await client.query<{ status: string; attempts: number }>("select status, attempts from jobs where kind = 'reminder' order by attempts");
      return rows.length === emails.length && rows.every((row) => row.status !== 'running' && row.status !== 'queued') ? rows : undefined;
    }, 'every reminder job ended', 60_000);
    expect(jobs.map((job) => job.status)).toEqual(emails.map(() => 'done'));
    expect(jobs.filter((job) => job.attempts === 2)).toHaveLength(2); // the two cut by the kill, taken again once their locks lapsed
  }, 180_000);
});
