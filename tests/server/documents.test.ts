import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import documentsText from '../../schemas/documents.json';
import { signServiceToken } from '../../src/server/pdf/service-token.ts';
import { ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { makeDocx, makeImage, makePdf, makePdfWithJavaScript, makeZipBomb } from '../../support/document-fixtures.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServer, startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { conversionResult, postFile, uploadThroughApi } from '../../support/uploads.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';
import { until } from '../../support/until.ts';
import { printCeilingMs } from '../../support/ceilings.ts';

const messages = documentsText.messages;
let browser: Browser;
let png: Buffer;
let jpeg: Buffer;
beforeAll(async () => {
  browser = await workerBrowser();
  png = await makeImage(browser, 'png');
  jpeg = await makeImage(browser, 'jpeg');
});
afterAll(async () => {
  await closeContexts(browser);
});


describe.each(databaseTargets())('documents on $name', (target) => {
  let server: TestServer;
  let counter = 0;
  const applicant = () => createConfirmedApplicant(server.app, `docs${++counter}.${target.name}@example.org`);

  beforeAll(async () => {
    server = await startTestServerOn(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    ['a PNG', 'hs_transcript', 'transcript.png', () => png],
    ['a JPEG', 'activ_resume', 'resume.jpg', () => jpeg],
    ['a PDF', 'supporting_document', 'letter.pdf', () => makePdf()],
    ['a Word file', 'hs_transcript', 'transcript.docx', () => makeDocx()],
  ])('converts %s to PDF and marks the answer', async (_label, key, name, bytes) => {
    const api = await applicant();
    await uploadThroughApi(server.app, api, key, name, await bytes());
    expect(await conversionResult(api, key)).toEqual({ status: 'COMPLETED' });
    const profile = await api.get<{ answer: Record<string, string>; document_answer: Record<string, unknown> }>('/api/profile');
    expect(profile.body.answer[key]).toBe('ANSWERED');
    expect((await api.get('/api/document-answer')).body).toEqual({ [key]: { file_name: name, file_size: expect.any(Number) } });
  });

  it('converts Word text faithfully', async () => {
    const api = await applicant();
    await uploadThroughApi(server.app, api, 'supporting_document', 'essay.docx', await makeDocx(['Why I want to study here', 'Because of the library.']));
    expect((await conversionResult(api, 'supporting_document')).status).toBe('COMPLETED');
    const row = await server.app.db.selectFrom('documents').select('pdf_key').where('answer_key', '=', 'supporting_document').orderBy('updated_at', 'desc').executeTakeFirstOrThrow();
    expect(pdfText(await server.app.storage.get(row.pdf_key!))).toContain('Because of the library.');
  });

  it('refuses a disguised file, a zip bomb, and removes script from a PDF', async () => {
    const api = await applicant();
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(2048, 0x90)]);
    await uploadThroughApi(server.app, api, 'hs_transcript', 'photo.png', exe);
    expect(await conversionResult(api, 'hs_transcript')).toEqual({ status: 'FAILED', message: messages.not_real_type.replace('{extension}', 'PNG') });
    expect((await api.get('/api/profile')).body.answer).toEqual({});

    await uploadThroughApi(server.app, api, 'activ_resume', 'resume.docx', await makeZipBomb());
    expect(await conversionResult(api, 'activ_resume')).toEqual({ status: 'FAILED', message: messages.docx_too_complex });

    await uploadThroughApi(server.app, api, 'supporting_document', 'letter.pdf', await makePdfWithJavaScript());
    expect((await conversionResult(api, 'supporting_document')).status).toBe('COMPLETED');
    const row = await server.app.db.selectFrom('documents').select('pdf_key').where('answer_key', '=', 'supporting_document').where('status', '=', 'COMPLETED').orderBy('updated_at', 'desc').executeTakeFirstOrThrow();
    const cleaned = Buffer.from(await server.app.storage.get(row.pdf_key!)).toString('latin1');
    expect(cleaned).not.toMatch(/\/OpenAction|\/JavaScript|app\.alert/);
  });

  it('holds uploads to the signed policy: key, size, expiry, fields, once', async () => {
    const api = await applicant();
    const presigned = (await api.post<{ fields: Record<string, string> }>('/api/presigned-url', { answer_key: 'hs_transcript' })).body.fields;
    expect((await postFile(server.app, { ...presigned, key: presigned.key!.replace(/[^/]+$/, 'other') }, 'a.png', png)).statusCode).toBe(403);
    expect((await postFile(server.app, { ...presigned, 'x-signature': 'forged' }, 'a.png', png)).statusCode).toBe(403);
    expect((await postFile(server.app, presigned, 'a.png', png, { acl: 'public-read' })).statusCode).toBe(403);
    const tooBig = await postFile(server.app, presigned, 'a.png', Buffer.alloc(documentsText.max_bytes + 1, 1));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe(messages.too_large);
    expect((await postFile(server.app, presigned, 'a.png', Buffer.alloc(0))).statusCode).toBe(400);
    expect((await postFile(server.app, presigned, 'a.png', png)).statusCode).toBe(204);
    expect((await postFile(server.app, presigned, 'a.png', png)).statusCode).toBe(409); // never overwritten
    expect((await api.post('/api/presigned-url', { answer_key: 'first_name' })).status).toBe(400);
    expect((await api.post(`/api/pdf/document-answer/hs_transcript`, { file_key: presigned.key, file_name: 'a'.repeat(40) + '.png' })).status).toBe(400);
    expect((await api.post(`/api/pdf/document-answer/hs_transcript`, { file_key: presigned.key, file_name: 'a.exe' })).status).toBe(400);
  });

  it('keeps one applicant\'s documents from another and from anonymous visitors', async () => {
    const owner = await applicant();
    const intruder = await applicant();
    const key = await uploadThroughApi(server.app, owner, 'hs_transcript', 'mine.png', png);
    expect((await conversionResult(owner, 'hs_transcript')).status).toBe('COMPLETED');
    // another applicant cannot claim, convert or read the owner's file
    expect((await intruder.post('/api/pdf/document-answer/hs_transcript', { file_key: key, file_name: 'mine.png' })).status).toBe(403);
    expect((await intruder.get('/api/pdf/document-answer/hs_transcript')).body).toEqual({ status: 'NOT_ANSWERED' });
    expect((await intruder.get('/api/document-answer')).body).toEqual({});
    await intruder.request('DELETE', '/api/document-answer/hs_transcript');
    expect((await owner.get('/api/document-answer')).body).toHaveProperty('hs_transcript');
    const anonymous = new ApiSession(server.app);
    for (const [method, url] of [['GET', '/api/document-answer'], ['POST', '/api/presigned-url'], ['GET', '/api/pdf'], ['DELETE', '/api/document-answer/hs_transcript']] as const) {
      expect((await anonymous.request(method, url, {})).status).toBe(401);
    }
  });

  it('deletes a document with its conversion and answer', async () => {
    const api = await applicant();
    await uploadThroughApi(server.app, api, 'supporting_document', 'letter.pdf', await makePdf());
    expect((await conversionResult(api, 'supporting_document')).status).toBe('COMPLETED');
    expect((await api.request('DELETE', '/api/document-answer/supporting_document')).body).toEqual({ status: 'NOT_ANSWERED' });
    expect((await api.get('/api/profile')).body.answer).toEqual({});
    expect((await api.get('/api/document-answer')).body).toEqual({});
  });

  it('makes the PDF copy of the current answers, and a new one when an answer changes', async () => {
    const api = await applicant();
    await api.put('/api/answer', { first_name: 'Printed' });
    const ready = () => until(async () => {
      const { body } = await api.get<{ status: string; url?: string }>('/api/pdf');
      return ['UNPROCESSED', 'IN_PROGRESS'].includes(body.status) ? undefined : body;
    }, 'the PDF copy', printCeilingMs(server.app.config));
    expect((await api.get('/api/pdf')).body.status).toBe('UNPROCESSED');
    expect(await ready()).toEqual({ status: 'COMPLETED', url: '/api/pdf/file' });
    const first = await server.app.inject({ method: 'GET', url: '/api/pdf/file', headers: { cookie: `session=${api.cookies.get('session')}` } });
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(first.headers['content-disposition']).toBe(`attachment; filename="CHU application.pdf"; filename*=UTF-8''CHU%20application.pdf`);
    expect(first.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    await api.put('/api/answer', { first_name: 'Changed' });
    expect((await api.get('/api/pdf')).body.status).toBe('UNPROCESSED'); // fresh, not the old copy
    expect(await ready()).toEqual({ status: 'COMPLETED', url: '/api/pdf/file' });
  });

  it('honours service tokens only for their applicant, scope and lifetime', async () => {
    const api = await applicant();
    await api.put('/api/answer', { first_name: 'Servia' });
    const id = (await server.app.db.selectFrom('sessions').select('applicant_id').orderBy('created_at', 'desc').executeTakeFirstOrThrow()).applicant_id;
    const good = signServiceToken(server.app.serviceSecret, id, 60_000);
    const view = await new ApiSession(server.app).get(`/service/tmp-pdf?service_token=${encodeURIComponent(good)}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ answer: { first_name: 'Servia' }, add_another: {}, document_answer: {}, tabs: {} });
    const expired = signServiceToken(server.app.serviceSecret, id, 60_000, Date.now() - 120_000);
    const forged = signServiceToken('another-secret', id, 60_000);
    const [payload, signature] = good.split('.');
    const otherApplicant = `${Buffer.from(JSON.stringify({ sub: '00000000-0000-0000-0000-000000000000', scope: 'read', exp: Date.now() + 60_000 })).toString('base64url')}.${signature}`;
    const writeScope = `${Buffer.from(JSON.stringify({ sub: id, scope: 'write', exp: Date.now() + 60_000 })).toString('base64url')}.${signature}`;
    for (const token of [expired, forged, otherApplicant, writeScope, `${payload}.`, 'nonsense']) {
      expect((await new ApiSession(server.app).get(`/service/tmp-pdf?service_token=${encodeURIComponent(token)}`)).status).toBe(401);
    }
  });
});

describe('without LibreOffice', () => {
  it('ends a Word conversion FAILED with a clear message, at once', async () => {
    const server = await startTestServer({ env: { SOFFICE_PATH: '/nonexistent/soffice' } });
    try {
      const api = await createConfirmedApplicant(server.app, 'nolo@example.org');
      await uploadThroughApi(server.app, api, 'hs_transcript', 'transcript.docx', await makeDocx());
      expect(await conversionResult(api, 'hs_transcript', 10_000)).toEqual({ status: 'FAILED', message: messages.converter_missing });
    } finally {
      await server.close();
    }
  });
});

describe('a conversion interrupted by a server stop', () => {
  it('is taken again after its lock lapses and finishes', async () => {
    const server = await startTestServer({ env: { JOB_LOCK_MS: '1500' } });
    try {
      const api = await createConfirmedApplicant(server.app, 'restart@example.org');
      // a worker that died mid-job: running, its lock about to lapse
      await server.app.jobs.stop();
      await uploadThroughApi(server.app, api, 'supporting_document', 'letter.pdf', await makePdf());
      const { sql } = await import('kysely');
      await sql`update jobs set status = 'running', attempts = 1, locked_until = now() + interval '1 second'`.execute(server.app.db);
      await sql`update documents set status = 'IN_PROGRESS'`.execute(server.app.db);
      server.app.jobs.start();
      expect((await conversionResult(api, 'supporting_document', 15_000)).status).toBe('COMPLETED');
      const job = await server.app.db.selectFrom('jobs').select(['status', 'attempts']).executeTakeFirstOrThrow();
      expect(job).toEqual({ status: 'done', attempts: 2 });
    } finally {
      await server.close();
    }
  });
});
