/**
 * The application file's events reach the office: a real receiver verifies each request's
 * Standard Webhooks signature (the standardwebhooks package, not our signer) and gets an
 * `application.file_item_changed` for every change and one `application.file_complete`;
 * on PostgreSQL two servers on one database mark the last two items at the same moment, and
 * still exactly one file_complete event is delivered and one file-complete mail arrives at
 * the SMTP receiver (on the embedded database, one server marks both at once). A replay
 * since a time sends the file's events again under their ids and makes only the missing
 * application.submitted events.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fileItems from '../../schemas/file-items.json';
import { makeOfficeKey } from '../../src/server/file-items/office-keys.ts';
import { replayEvents } from '../../src/server/webhooks/webhook-delivery.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { seedApplicant } from '../../support/seed.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';
import { startWebhookReceiver } from '../../support/webhook-receiver.ts';
import { builtCommand } from '../helpers/built-server.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const ROOT = resolve(import.meta.dirname, '..', '..');
const completeSubject = fileItems.texts.complete_subject.replace('{short_name}', 'CHU');

describe.each(databaseTargets())('application file events on $name', (target) => {
  const receiver = startWebhookReceiver(SECRET);
  let smtp: SmtpReceiver;
  let first: TestServer;
  let second: TestServer | undefined;
  let drop: () => Promise<void>;
  let databaseUrl: string | undefined;

  beforeAll(async () => {
    const url = await receiver.listen();
    smtp = await startSmtpReceiver();
    const database = await target.create();
    drop = database.drop;
    databaseUrl = database.url;
    const env = { WEBHOOK_URL: url, WEBHOOK_SECRET: SECRET, SMTP_URL: smtp.url, JOB_RETRY_DELAY_MS: '1' };
    first = await startTestServer({ databaseUrl: database.url, env });
    // the embedded database is one process's: a second server is PostgreSQL's case
    if (database.url) second = await startTestServer({ databaseUrl: database.url, env });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await drop?.();
    await receiver.close();
    await smtp?.close();
  });

  /** Every webhook and mail job of the database has ended. */
  const allSent = () => until(async () => {
    const pending = await first.app.db.selectFrom('jobs').select('id').where('kind', 'in', ['webhook', 'mail']).where('status', '!=', 'done').execute();
    return pending.length === 0 || undefined;
  }, 'every event and mail sent');

  it('delivers a signed event for each change and one file_complete, when two servers mark the last two items at once', async () => {
    const email = `file-events.${target.name}@example.org`;
    const { id } = await seedApplicant(first.app, { email, answers: { ...completeApplication(), test_optional: 'Y' }, status: 'submitted' });
    const { key } = await makeOfficeKey(first.app.db, 'registrar', 'test');
    const mark = (server: TestServer, item: string, state: string) => server.app.inject({
      method: 'PUT', url: `/api/office/applicants/${id}/file/items/${item}`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify({ state }),
    });

    expect((await mark(first, 'counselor-recommendation', 'received')).statusCode).toBe(200); // optional: the file is not complete
    const [transcript, scores] = await Promise.all([mark(first, 'transcript', 'received'), mark(second ?? first, 'test-scores', 'waived')]);
    expect([transcript.statusCode, scores.statusCode]).toEqual([200, 200]);
    for (const server of [first, second]) server?.app.jobs.poke();

    const changes = await until(async () => {
      const found = receiver.ofType('application.file_item_changed', id);
      return found.length === 3 && receiver.ofType('application.file_complete', id).length === 1 ? found : undefined;
    }, 'three changes and the completion delivered');
    expect(changes.map((event) => event.data).sort((a, b) => String(a.item).localeCompare(String(b.item)))).toEqual([
      { applicant_id: id, email, item: 'counselor-recommendation', state: 'received', changed_at: expect.any(String), changed_by: 'office:registrar' },
      { applicant_id: id, email, item: 'test-scores', state: 'waived', changed_at: expect.any(String), changed_by: 'office:registrar' },
      { applicant_id: id, email, item: 'transcript', state: 'received', changed_at: expect.any(String), changed_by: 'office:registrar' },
    ]);
    const [complete] = receiver.ofType('application.file_complete', id);
    expect(complete!.data).toEqual({ applicant_id: id, email, file_complete_at: expect.any(String), decision_due: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) });
    const stored = await first.app.db.selectFrom('applicants').select('file_complete_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(complete!.data.file_complete_at).toBe(stored.file_complete_at!.toISOString());

    await smtp.waitFor(email, (mail) => mail.subject === completeSubject);
    await allSent();
    expect(smtp.inbox.filter((mail) => mail.to === email && mail.subject === completeSubject)).toHaveLength(1);
    expect(receiver.ofType('application.file_complete', id)).toHaveLength(1);
    expect(receiver.badSignatures).toEqual([]);
    const recorded = await first.app.db.selectFrom('webhook_events').select('type').where('applicant_id', '=', id).execute();
    expect(recorded.map((row) => row.type).sort()).toEqual(['application.file_complete', 'application.file_item_changed', 'application.file_item_changed', 'application.file_item_changed', 'application.submitted']);
  });

  it('replays the file\'s events since a time under their ids, and makes only the missing application.submitted', async () => {
    const since = new Date(Date.now() - 10 * 60_000);
    const submitted = await first.app.db.selectFrom('webhook_events').select(['id', 'applicant_id']).where('type', '=', 'application.submitted').executeTakeFirstOrThrow();
    // as if it had been submitted before webhooks were set up
    await first.app.db.deleteFrom('webhook_events').where('id', '=', submitted.id).execute();
    const before = await first.app.db.selectFrom('webhook_events').select('id').execute();

    let queued: string[];
    if (databaseUrl) {
      // the office's command, as a process of its own beside the two servers
      const { stdout } = await promisify(execFile)(process.execPath, builtCommand('webhooks', '--since', since.toISOString()), {
        cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      });
      expect(stdout).toContain('(1 made for submissions that had none)');
      const line = stdout.split('\n').find((text) => text.startsWith('Queued '))!;
      queued = line.slice(line.lastIndexOf(': ') + 2).trim().split(' ');
    } else {
      const replayed = await replayEvents(first.app.db, { since });
      expect(replayed.made).toBe(1);
      queued = replayed.queued;
    }
    const after = await first.app.db.selectFrom('webhook_events').select(['id', 'type']).execute();
    const made = after.filter((row) => !before.some((old) => old.id === row.id));
    expect(made.map((row) => row.type)).toEqual(['application.submitted']); // no file event is made again
    expect(queued.sort()).toEqual(after.map((row) => row.id).sort());

    for (const server of [first, second]) server?.app.jobs.poke();
    await allSent();
    // the remade event has an id of its own (the receiver saw the first before it was lost here)
    expect(receiver.ofType('application.submitted', submitted.applicant_id!).map((event) => event.id)).toEqual([submitted.id, made[0]!.id]);
    // the file's events came again under the same ids: the receiver has each once, delivered twice
    const complete = receiver.ofType('application.file_complete', submitted.applicant_id!);
    expect(complete).toHaveLength(1);
    expect(complete[0]!.deliveries).toBe(2);
    expect(receiver.badSignatures).toEqual([]);
  });
});
