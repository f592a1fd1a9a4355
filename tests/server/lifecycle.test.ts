import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStatus } from '../../src/server/db/repositories/status-repository.ts';
import apiMessages from '../../schemas/text/api-messages.json';
import partner from '../../schemas/partner.json';
import { ApiSession, STRONG_PASSWORD, outboxCode } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';

describe.each(databaseTargets())('saving and submitting on $name', (target) => {
  let server: TestServer;
  let counter = 0;
  const applicant = () => createConfirmedApplicant(server.app, `life${++counter}.${target.name}@example.org`);

  beforeAll(async () => {
    server = await startTestServerOn(target, { listen: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('writes only the keys a save carries, clears with "", and recomputes every _desc', async () => {
    const api = await applicant();
    expect((await api.put('/api/answer', { first_name: 'Ada', gender: 'F', gender_desc: 'Forged', optin_sms_ind: true })).status).toBe(200);
    expect((await api.put('/api/answer', { last_name: 'Lovelace' })).status).toBe(200);
    expect((await api.put('/api/answer', { gender: '' })).status).toBe(200);
    expect((await api.put('/api/answer', { country: 'CAN', grad_year: '2024' })).status).toBe(200);
    const { body } = await api.get('/api/profile');
    expect(body.answer).toEqual({
      first_name: 'Ada', last_name: 'Lovelace', optin_sms_ind: true, country: 'CAN', country_desc: 'Canada', grad_year: '2024', grad_year_desc: '2024',
    });
    const versions = await server.app.db.selectFrom('answers').select(['key', 'schema_version']).where('key', '=', 'first_name').execute();
    expect(versions.map((row) => row.schema_version)).toEqual([1]);
  });

  it('refuses unknown keys, wrong types and documents set from the browser', async () => {
    const api = await applicant();
    const unknown = await api.put('/api/answer', { first_name: 'Ada', favourite_colour: 'blue' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(apiMessages.unknown_keys.replace('{keys}', 'favourite_colour'));
    expect((await api.put('/api/answer', { optin_sms_ind: 'yes' })).status).toBe(400);
    expect((await api.put('/api/answer', { first_name: 42 })).status).toBe(400);
    expect((await api.put('/api/answer', { first_name: 'x'.repeat(1501) })).status).toBe(400);
    expect((await api.put('/api/answer', ['first_name'])).status).toBe(400);
    await api.put('/api/answer', { hs_transcript: 'ANSWERED' });
    expect((await api.get('/api/profile')).body.answer).toEqual({});
    expect((await new ApiSession(server.app).put('/api/answer', { first_name: 'Ada' })).status).toBe(401);
  });

  it('adds status entries in order only', async () => {
    const api = await applicant();
    expect((await api.post('/api/web-status', { web_status: 'validating' })).status).toBe(409);
    expect((await api.post('/api/web-status', { web_status: 'started' })).body).toEqual({ web_status: 'started' });
    expect((await api.post('/api/web-status', { web_status: 'started' })).status).toBe(200); // a repeat is harmless
    expect((await api.post('/api/web-status', { web_status: 'submitted' })).status).toBe(409); // only submit submits
    expect((await api.post('/api/web-status', { web_status: 'validating' })).body).toEqual({ web_status: 'validating' });
    expect((await api.post('/api/web-status', { web_status: 'nonsense' })).status).toBe(400);
    const profile = await api.get<{ web_status: { web_status: string }[] }>('/api/profile');
    expect(profile.body.web_status.map((entry) => entry.web_status)).toEqual(['started', 'validating']);
  });

  it('keeps the last page, and only a page of the application', async () => {
    const api = await applicant();
    expect((await api.put('/api/last-page', { last_page: '/education-ug' })).status).toBe(200);
    expect((await api.put('/api/last-page', { last_page: '/admin' })).status).toBe(400);
    expect((await api.get('/api/profile')).body.last_page).toBe('/education-ug');
  });

  it('keeps a validation snapshot and refuses a malformed or oversized one', async () => {
    const api = await applicant();
    expect((await api.post('/api/validations', { first_name: ['Legal First Name'] })).status).toBe(200);
    expect((await api.post('/api/validations', { first_name: 'nope' })).status).toBe(400);
    expect((await api.post('/api/validations', { x: ['y'.repeat(70_000)] })).status).toBe(400);
  });

  it('refuses a submit with missing answers even when the client is bypassed, then submits once complete', async () => {
    const api = await applicant();
    await api.post('/api/web-status', { web_status: 'started' });
    const { legal_agree: _agree, hs_gpa: _gpa, ...almost } = completeApplication();
    await api.put('/api/answer', almost);
    const refused = await api.post('/api/submit');
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      hs_gpa: ['Please enter your GPA as a number, e.g. 3.75.'],
      legal_agree: ['Please certify that your application is complete and correct.'],
    });
    expect(refused.body.pages).toEqual({ 'education-ug': ['hs_gpa'], 'final-steps': ['legal_agree'] });
    const statuses = async () => (await api.get<{ web_status: { web_status: string }[] }>('/api/profile')).body.web_status.map((entry) => entry.web_status);
    expect(await statuses()).toEqual(['started']);

    await api.put('/api/answer', { legal_agree: true, hs_gpa: '3.9' });
    const accepted = await api.post('/api/submit');
    expect(accepted.status).toBe(200);
    expect(await statuses()).toEqual(['started', 'validating', 'submitted']);
    expect((await api.post('/api/submit')).status).toBe(200); // a second submit is harmless
    expect((await api.post('/api/web-status', { web_status: 'submitted' })).status).toBe(200);
    // the configured intake, and how it reads (spec-decisions 20)
    expect((await api.get('/api/profile')).body.answer).toMatchObject({ entry_term: partner.intake, entry_term_desc: partner.intake_label });

    const after = await api.put('/api/answer', { first_name: 'Changed' });
    expect(after.status).toBe(409);
    expect(after.body.message).toBe(apiMessages.submitted);
  });

  it('refuses a save that waited on a submit in progress, and writes none of it', async () => {
    const email = `race${++counter}.${target.name}@example.org`;
    const api = await createConfirmedApplicant(server.app, email);
    expect((await api.put('/api/answer', { first_name: 'Before' })).status).toBe(200);
    const { id } = await server.app.db.selectFrom('applicants').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    let save: Promise<{ status: number; body: { message?: string } }> | undefined;
    // a submit in progress in another tab: it holds the applicant's row until it commits
    await server.app.db.transaction().execute(async (tx) => {
      await sql`select id from applicants where id = ${id} for update`.execute(tx);
      await addStatus(tx, id, 'submitted');
      save = api.put('/api/answer', { first_name: 'During' });
      if (target.name === 'postgres') {
        // the save's statement is under way, waiting for the row (PGlite's one connection makes it wait for the commit itself)
        await expect.poll(async () => (await sql<{ waiting: number }>`select count(*)::int as waiting from pg_stat_activity
          where wait_event_type = 'Lock' and query like '%with applicant as%'`.execute(server.app.db)).rows[0]!.waiting, { timeout: 10_000 }).toBe(1);
      }
    });
    const refused = await save!;
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(apiMessages.submitted);
    expect((await api.get<{ answer: Record<string, unknown> }>('/api/profile')).body.answer.first_name).toBe('Before');
  });

  it('keeps the answers carried to sign-up with a new account only', async () => {
    const api = new ApiSession(server.app);
    const fresh = `carried${++counter}.${target.name}@example.org`;
    await api.post('/public/signup', { username: fresh, password: STRONG_PASSWORD, answers: { first_name: 'Grace', gender: 'F', nonsense: 'x' } });
    await api.post('/public/confirm', { username: fresh, code: await outboxCode(server.app, fresh) });
    await api.post('/public/login', { username: fresh, password: STRONG_PASSWORD });
    expect((await api.get('/api/profile')).body.answer).toEqual({ first_name: 'Grace', gender: 'F', gender_desc: 'Female' });

    // an existing account never takes answers from a sign-up
    await api.post('/public/signup', { username: fresh, password: STRONG_PASSWORD, answers: { first_name: 'Mallory' } });
    expect((await api.get('/api/profile')).body.answer).toMatchObject({ first_name: 'Grace' });
  });
});
