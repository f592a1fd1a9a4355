/**
 * The application file's items on the server: a submitted applicant's checklist follows
 * the schema's rules on their answers; a request never lowers an item already in; the file
 * completes once, with one mail and one `application.file_complete` event, even when the
 * last two items arrive at once; items that came before the form complete it at submit.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fileItems from '../../schemas/file-items.json';
import type { ApplicationFileView } from '../../src/server/file-items/file-item-service.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { seedApplicant, sessionFor } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';

const completeSubject = fileItems.texts.complete_subject.replace('{short_name}', 'CHU');

describe.each(databaseTargets())('the application file on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    // a receiver nobody answers: the events are recorded and queued, their delivery is another test's subject
    server = await startTestServerOn(target, { listen: false, env: { WEBHOOK_URL: 'http://127.0.0.1:9/hooks', WEBHOOK_SECRET: `whsec_${Buffer.alloc(24, 7).toString('base64')}` } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const counts = async (applicantId: string, email: string) => {
    const events = await sql<{ type: string; n: number }>`select type, count(*)::int as n from webhook_events where applicant_id = ${applicantId} group by type`.execute(server.app.db);
    const mails = await sql<{ n: number }>`select count(*)::int as n from mails where recipient = ${email} and subject = ${completeSubject}`.execute(server.app.db);
    return { events: Object.fromEntries(events.rows.map((row) => [row.type, row.n])), mails: mails.rows[0]!.n };
  };

  it('lists the items with the rules on the answers, and completes the file once when the last required two arrive at once', async () => {
    const email = `file.${target.name}@example.org`;
    const { id } = await seedApplicant(server.app, { email, answers: { ...completeApplication(), test_optional: 'Y' }, status: 'submitted' });
    const api = await sessionFor(server.app, id);
    const fileOf = async () => {
      const reply = await api.call('applicationFile');
      expect(reply.status).toBe(200);
      return reply as { body: ApplicationFileView };
    };
    const first = await fileOf();
    expect(first.body).toMatchObject({ submitted: true, complete_at: null, decision_due: null, counselor_email: null });
    expect(first.body.items.map((item) => [item.id, item.required, item.state])).toEqual([
      ['transcript', true, 'missing'], ['test-scores', true, 'missing'], ['counselor-recommendation', false, 'missing'],
    ]);

    await server.app.fileItems.mark(id, 'transcript', { state: 'requested', by: 'applicant' });
    const marks = await Promise.all([
      server.app.fileItems.mark(id, 'transcript', { state: 'received', by: 'counselor' }),
      server.app.fileItems.mark(id, 'test-scores', { state: 'waived', by: 'office:test' }),
    ]);
    expect(marks.filter((mark) => mark.completedAt)).toHaveLength(1);
    // a late request for an item already in changes nothing
    expect((await server.app.fileItems.mark(id, 'transcript', { state: 'requested', by: 'applicant' })).changed).toBe(false);
    expect((await server.app.fileItems.mark(id, 'test-scores', { state: 'waived', by: 'office:test' })).changed).toBe(false);

    const after = await fileOf();
    expect(after.body.items.find((item) => item.id === 'transcript')).toMatchObject({ state: 'received' });
    expect(after.body.complete_at).not.toBeNull();
    expect(after.body.decision_due).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await counts(id, email)).toEqual({ events: { 'application.submitted': 1, 'application.file_item_changed': 3, 'application.file_complete': 1 }, mails: 1 });
  });

  it('needs no test scores of an applicant who applies test-optional, and completes at submit a file whose items came first', async () => {
    const email = `early.${target.name}@example.org`;
    const { id } = await seedApplicant(server.app, { email, answers: { ...completeApplication(), test_optional: 'N' }, status: 'started' });
    await server.app.fileItems.mark(id, 'transcript', { state: 'received', by: 'office:test' });
    expect((await server.app.fileItems.view(id)).complete_at).toBeNull(); // the form is not in yet
    await server.app.lifecycle.submit(id);
    await server.app.fileItems.recheck(id); // what the submit's follow-up does, awaited here
    const view = await server.app.fileItems.view(id);
    expect(view.items.find((item) => item.id === 'test-scores')).toMatchObject({ required: false, state: 'missing' });
    expect(view.complete_at).not.toBeNull();
    expect((await counts(id, email)).mails).toBe(1);
  });

  it('refuses an item the schema does not have', async () => {
    const { id } = await seedApplicant(server.app, { email: `unknown.${target.name}@example.org` });
    await expect(server.app.fileItems.mark(id, 'diploma', { state: 'received', by: 'office:test' })).rejects.toMatchObject({ statusCode: 404 });
  });
});
