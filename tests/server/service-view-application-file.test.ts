/**
 * The read-only service view's read (GET /service/tmp-pdf, what staff's link and the PDF
 * copy show) carries the application file: each item with whether it is required of the
 * applicant, its state and when it changed; and a changed state changes the PDF copy's
 * fingerprint, so the next copy is printed afresh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signServiceToken } from '../../src/server/pdf/service-token.ts';
import { fingerprint } from '../../src/server/pdf/application-pdf.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { seedApplicant } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';

describe.each(databaseTargets())('the service view\'s application file on $name', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServerOn(target, { listen: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists the items and their states for the applicant the token names', async () => {
    const { id } = await seedApplicant(server.app, { email: `service.file.${target.name}@example.org`, answers: completeApplication(), status: 'submitted' });
    const before = await fingerprint(server.app.db, id);
    await server.app.fileItems.mark(id, 'transcript', { state: 'received', by: 'office:test' });
    expect(await fingerprint(server.app.db, id)).not.toBe(before);
    const token = signServiceToken(server.app.serviceSecret, id, 60_000);
    const reply = await server.app.inject({ method: 'GET', url: `/service/tmp-pdf?service_token=${encodeURIComponent(token)}` });
    expect(reply.statusCode).toBe(200);
    const file = reply.json().application_file;
    expect(file).toMatchObject({ submitted: true, complete_at: expect.any(String), decision_due: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(file.items.map((item: { id: string; required: boolean; state: string }) => [item.id, item.required, item.state])).toEqual([
      ['transcript', true, 'received'], ['test-scores', false, 'missing'], ['counselor-recommendation', false, 'missing'],
    ]);
    expect(file.items[0].changed_at).toEqual(expect.any(String));
  });
});
