import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession, STRONG_PASSWORD } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';

/**
 * An answer is as long as its question allows (the form's maxLength: a ZIP code 10), on
 * every path that writes answers: a save, and the answers carried into a sign-up.
 */
describe.each(databaseTargets())('answer lengths on $name', (target) => {
  let server: TestServer;
  let applicant: ApiSession;

  beforeAll(async () => {
    server = await startTestServerOn(target);
    applicant = await createConfirmedApplicant(server.app, `lengths.${target.name}@example.org`);
  });
  afterAll(() => server?.close());

  const storedFor = (address: string) => server.app.db.selectFrom('answers').innerJoin('applicants', 'applicants.id', 'answers.applicant_id')
    .select(['key', 'value']).where('applicants.email', '=', address).execute();

  it('a save longer than the question\'s own maxLength is refused, and nothing of it is written', async () => {
    const refused = await applicant.put('/api/answer', { first_name: 'Ada', zip: '1'.repeat(1400) });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'BAD_ANSWER', errors: { zip: [expect.any(String)] } });
    expect((await applicant.put('/api/answer', { zip: '1234567890' })).status).toBe(200);
    // counted in characters as the browser's check counts them: 100 emoji (200 UTF-16 units) fit a 100-character line
    expect((await applicant.put('/api/answer', { address_line_1: '😀'.repeat(100) })).status).toBe(200);
    expect((await applicant.put('/api/answer', { address_line_1: '😀'.repeat(101) })).status).toBe(400);
    const stored = Object.fromEntries((await storedFor(`lengths.${target.name}@example.org`)).map(({ key, value }) => [key, value]));
    expect(stored.zip).toBe('1234567890');
    expect(stored.first_name).toBeUndefined();
  });

  it('answers carried into a sign-up are held to the same lengths: none longer than its question allows is kept', async () => {
    const address = `carried.${target.name}@example.org`;
    const signup = await new ApiSession(server.app).post('/public/signup', {
      username: address, password: STRONG_PASSWORD, answers: { zip: '9'.repeat(1400), first_name: 'x'.repeat(100_000) },
    });
    expect(signup.status).toBe(200);
    await until(async () => (await server.app.db.selectFrom('applicants').select('id').where('email', '=', address).executeTakeFirst()) ?? undefined, 'the account created');
    await until(async () => (await server.app.db.selectFrom('mails').select('id').where('status', '=', 'queued').executeTakeFirst()) ? undefined : true, 'the sign-up\'s work done');
    const tooLong = (await storedFor(address)).filter(({ key, value }) => (key === 'zip' ? 10 : 1500) < String(value).length);
    expect(tooLong.map(({ key }) => key)).toEqual([]);
  });
});
