/**
 * A school counselor sends an application file item without an account: the applicant asks
 * (after submission, for an item a counselor provides), the counselor's mail arrives with a
 * signed link, and the link alone names the applicant and item its page shows and its upload
 * goes to. The link is refused when altered, guessed, withdrawn or expired; requests are held to
 * the day's and the inbox's limits; item documents stay out of the form's answers.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fileItems from '../../schemas/file-items.json';
import apiMessages from '../../schemas/text/api-messages.json';
import esApiMessages from '../../schemas/i18n/es/text/api-messages.json';
import { counselorLinkToken } from '../../src/server/file-items/counselor-link-token.ts';
import type { ApplicationFileView } from '../../src/server/file-items/file-item-service.ts';
import { documentsOf } from '../../src/server/db/repositories/document-repository.ts';
import { convertedDocumentsOfMany } from '../../src/server/db/repositories/export-repository.ts';
import { uploadUsage } from '../../src/server/db/repositories/upload-slot-repository.ts';
import { exportedDocumentsOfMany } from '../../src/server/export/document-columns.ts';
import { makeOfficeKey } from '../../src/server/file-items/office-keys.ts';
import { ApiSession } from '../../support/api-session.ts';
import { counselorTokenOfMail } from '../../support/counselor-link.ts';
import { makeImage } from '../../support/document-fixtures.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { seedApplicant, sessionFor } from '../../support/seed.ts';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '../../support/smtp-receiver.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { postFile } from '../../support/uploads.ts';
import { until } from '../../support/until.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

const COUNSELOR = 'counselor@central-high.example.org';

const tokenOfMail = (mail: ReceivedMail) => counselorTokenOfMail(mail.text);

let png: Buffer;
beforeAll(async () => {
  const browser = await workerBrowser();
  png = await makeImage(browser, 'png', { width: 300, height: 200 }, 'Transcript');
  await closeContexts(browser);
});

describe.each(databaseTargets())('counselor requests on $name', (target) => {
  let server: TestServer;
  let smtp: SmtpReceiver;
  let counter = 0;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServerOn(target, { env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  async function submitted(answers: Record<string, string | boolean> = {}, status: 'submitted' | 'started' = 'submitted') {
    const email = `applicant${++counter}.${target.name}@example.org`;
    const { id } = await seedApplicant(server.app, { email, answers: { ...completeApplication(), counselor_email_address: COUNSELOR, ...answers }, status });
    return { id, api: await sessionFor(server.app, id) };
  }
  const ask = (api: ApiSession, item: string, email: string, language: 'en' | 'es' = 'en') => api.call('askCounselor', { params: { item }, body: { email, language } });
  const counselor = (api: ApiSession, token: string | undefined) => ({
    get: (url: string) => api.request('GET', url, undefined, token === undefined ? {} : { 'x-counselor-link': token }),
    post: (url: string, body?: unknown) => api.request('POST', url, body, token === undefined ? {} : { 'x-counselor-link': token }),
  });
  /** The next mail to an address not read yet (the receiver hands each out once). */
  const mailTo = (to: string) => smtp.waitFor(to);

  it('mails the counselor a link whose page shows the applicant and item only, and whose upload receives the item', async () => {
    const { id, api } = await submitted();
    const inbox = `first.${counter}.${target.name}@school.example.org`;
    const asked = await ask(api, 'transcript', inbox);
    expect(asked.status).toBe(200);
    const view = asked.body as ApplicationFileView;
    const transcript = view.items.find((item) => item.id === 'transcript')!;
    expect(transcript).toMatchObject({ state: 'requested', request: { email: inbox, withdrawn: false } });
    const days = (new Date(transcript.request!.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(fileItems.counselor_link_days);

    const mail = await mailTo(inbox);
    expect(mail.subject).toBe('Ada Lovelace asks you to send their transcript to Concordia Heights University');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text).toContain('Ada Lovelace, a student at Central High School');
    expect(mail.text).toContain('Official high school transcript');
    expect(mail.text).toMatch(/works until [A-Z][a-z]+ \d{1,2}, \d{4}:/);
    expect(mail.from).toContain('Admissions');
    const token = tokenOfMail(mail);
    expect(mail.text).toContain(`${server.url}/counselor#${token}`);

    const guest = counselor(new ApiSession(server.app), token); // no cookie: the counselor has no account
    const page = await guest.get('/api/counselor/request');
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ applicant_name: 'Ada Lovelace', item: 'transcript', language: 'en', status: 'NOT_ANSWERED' });

    const presigned = await guest.post('/api/counselor/presigned-url');
    expect(presigned.status).toBe(200);
    const fields = (presigned.body as { fields: Record<string, string> }).fields;
    expect(fields.key).toMatch(new RegExp(`^uploads/${id}/file-item/transcript/`));
    expect((await postFile(server.app, fields, 'transcript.png', png)).statusCode).toBe(204);
    expect((await guest.post('/api/counselor/document', { file_key: fields.key, file_name: 'transcript.png' })).status).toBe(200);
    const done = await until(async () => {
      const { body } = await guest.get('/api/counselor/document');
      return ['UNPROCESSED', 'IN_PROGRESS'].includes((body as { status: string }).status) ? undefined : body;
    }, 'the counselor upload to convert', 60_000);
    expect(done).toEqual({ status: 'COMPLETED' });

    const after = (await api.call('applicationFile')).body as ApplicationFileView;
    expect(after.items.find((item) => item.id === 'transcript')).toMatchObject({ state: 'received' });
    const row = await server.app.db.selectFrom('file_items').select(['changed_by', 'document_key']).where('applicant_id', '=', id).where('item_id', '=', 'transcript').executeTakeFirstOrThrow();
    expect(row).toEqual({ changed_by: 'counselor', document_key: 'file-item:transcript' });
    // no form answer: the profile and the documents list do not show it
    const profile = (await api.call('profile')).body as { document_answer?: Record<string, unknown>; answer: Record<string, unknown> };
    expect(Object.keys(profile.document_answer ?? {})).not.toContain('file-item:transcript');
    expect(Object.keys(profile.answer)).not.toContain('file-item:transcript');
    expect(Object.keys((await api.call('documents')).body as object)).toEqual([]);
    // the item is in: the link's upload is closed, its page says received
    expect((await guest.post('/api/counselor/presigned-url')).status).toBe(409);
    expect(((await guest.get('/api/counselor/request')).body as { status: string }).status).toBe('COMPLETED');
  }, 90_000);

  it('writes the counselor\'s mail in the language the applicant chose', async () => {
    const { api } = await submitted();
    const inbox = `es.${counter}.${target.name}@school.example.org`;
    expect((await ask(api, 'counselor-recommendation', inbox, 'es')).status).toBe(200);
    const mail = await mailTo(inbox);
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject).toContain('Ada Lovelace');
    expect(mail.subject).not.toContain('asks you');
    expect(mail.text).toMatch(/\d{1,2} de [a-z]+ de \d{4}/);
    expect(mail.text).toContain('/counselor?lang=es#');
    const page = await counselor(await sessionFor(server.app, (await submitted()).id), tokenOfMail(mail)).get('/api/counselor/request');
    expect(page.body).toMatchObject({ language: 'es', item: 'counselor-recommendation' });
  });

  it('refuses a link altered, guessed, signed for another request, sent in the address, withdrawn or expired', async () => {
    const { api } = await submitted();
    const { api: other } = await submitted();
    const inbox = `links.${counter}.${target.name}@school.example.org`;
    await ask(api, 'transcript', inbox);
    const token = tokenOfMail(await mailTo(inbox));
    await ask(other, 'transcript', inbox);
    const otherToken = tokenOfMail(await mailTo(inbox));
    const [id, signature] = token.split('.') as [string, string];
    const [otherId, otherSignature] = otherToken.split('.') as [string, string];
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    const guest = await sessionFor(server.app, (await submitted()).id); // a browser with someone's cookie changes nothing
    const statusOf = async (value: string | undefined, url = '/api/counselor/request') => {
      const reply = await counselor(guest, value).get(url);
      return [reply.status, (reply.body as { code?: string }).code];
    };
    expect(await statusOf(token)).toEqual([200, undefined]);
    for (const bad of [undefined, '', `${id}.${flipped}`, `${id}.${otherSignature}`, `${otherId}.${signature}`, `${crypto.randomUUID()}.${signature}`,
      `${id}`, `${id}.${signature}.${signature}`, `${id.toUpperCase()}.${signature}`, 'x'.repeat(5000), counselorLinkToken('guessed-secret', id)]) {
      expect(await statusOf(bad), String(bad).slice(0, 80)).toEqual([404, 'LINK_INVALID']);
    }
    // the token only counts in its header: the address (logged, sent on as Referer) carries none
    expect((await guest.get(`/api/counselor/request?token=${encodeURIComponent(token)}`)).status).toBe(404);
    // no parameter changes what it names: the other applicant's link shows the other applicant's item, a query is ignored
    const reply = await counselor(guest, token).get('/api/counselor/request?item=counselor-recommendation&applicant_id=x');
    expect(reply.body).toMatchObject({ item: 'transcript' });
    // an upload key of another applicant is refused
    const otherPresigned = (await counselor(guest, otherToken).post('/api/counselor/presigned-url')).body as { fields: Record<string, string> };
    expect((await counselor(guest, token).post('/api/counselor/document', { file_key: otherPresigned.fields.key, file_name: 'a.png' })).status).toBe(403);

    // a newer request withdraws the older link; the applicant withdraws; the office withdraws
    const { id: holderId, api: holder } = await submitted();
    const mailbox = `renew.${counter}.${target.name}@school.example.org`;
    await ask(holder, 'transcript', mailbox);
    const firstToken = tokenOfMail(await mailTo(mailbox));
    await ask(holder, 'transcript', mailbox);
    const secondToken = tokenOfMail(await mailTo(mailbox));
    expect(await statusOf(firstToken)).toEqual([410, 'LINK_WITHDRAWN']);
    expect((await counselor(guest, firstToken).get('/api/counselor/request')).body).toMatchObject({ message: apiMessages.link_withdrawn });
    expect(await statusOf(secondToken)).toEqual([200, undefined]);
    const withdrawn = await holder.call('withdrawCounselorRequest', { params: { item: 'transcript' } });
    expect(withdrawn.status).toBe(200);
    expect((withdrawn.body as ApplicationFileView).items.find((item) => item.id === 'transcript')).toMatchObject({ state: 'missing', request: { withdrawn: true } });
    expect(await statusOf(secondToken)).toEqual([410, 'LINK_WITHDRAWN']);
    expect(await statusOf(secondToken, '/api/counselor/document')).toEqual([410, 'LINK_WITHDRAWN']);
    expect((await holder.call('withdrawCounselorRequest', { params: { item: 'transcript' } })).status).toBe(404);
    await ask(holder, 'transcript', mailbox);
    const thirdToken = tokenOfMail(await mailTo(mailbox));
    await server.app.counselorRequests.withdrawByOffice(holderId, 'transcript', 'office:test');
    expect(await statusOf(thirdToken)).toEqual([410, 'LINK_WITHDRAWN']);

    // expired: the same refusal whatever the applicant does meanwhile
    await sql`update counselor_requests set expires_at = now() - interval '1 minute' where id = ${id}::uuid`.execute(server.app.db);
    expect(await statusOf(token)).toEqual([410, 'LINK_EXPIRED']);
    expect(((await api.call('applicationFile')).body as ApplicationFileView).items[0]!.request).toMatchObject({ withdrawn: true });
    // in Spanish as the page asks
    const spanish = await counselor(guest, token).get('/api/counselor/request');
    expect(spanish.body).toMatchObject({ message: apiMessages.link_expired });
    const es = await guest.request('GET', '/api/counselor/request', undefined, { 'x-counselor-link': token, 'accept-language': 'es' });
    expect([apiMessages.link_expired, esApiMessages.link_expired]).toContain((es.body as { message: string }).message);
  }, 60_000);

  it('asks only after submission, for a counselor\'s item not yet in, at an address that is one address', async () => {
    const { api: early } = await submitted({}, 'started');
    expect((await ask(early, 'transcript', COUNSELOR)).body).toMatchObject({ code: 'NOT_SUBMITTED' });
    const { id, api } = await submitted();
    expect((await ask(api, 'test-scores', COUNSELOR)).body).toMatchObject({ code: 'UNKNOWN_ITEM' });
    expect((await ask(api, 'no-such-item', COUNSELOR)).status).toBe(404);
    for (const bad of ['not-an-address', 'a@b', `${COUNSELOR}\r\nBcc: victim@example.org`, `${COUNSELOR}, victim@example.org`, `Eve <${COUNSELOR}>`, `x@${'a'.repeat(250)}.org`]) {
      const reply = await ask(api, 'transcript', bad);
      expect(reply.status, bad).toBe(400);
    }
    await server.app.fileItems.mark(id, 'transcript', { state: 'waived', by: 'office:test' });
    expect((await ask(api, 'transcript', COUNSELOR)).body).toMatchObject({ code: 'ITEM_CLOSED' });
  });

  it('sends at most the day\'s limit of mails for a thousand requests, and refuses the rest with 429', async () => {
    const { api } = await submitted();
    const inbox = `bombed.${counter}.${target.name}@school.example.org`;
    const replies = await Promise.all(Array.from({ length: 1000 }, () => ask(api, 'transcript', inbox)));
    const statuses = replies.map((reply) => reply.status);
    const sent = statuses.filter((status) => status === 200).length;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(fileItems.counselor_requests_per_day);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    const refusal = replies.find((reply) => reply.status === 429)!;
    expect([apiMessages.counselor_requests_per_day, apiMessages.counselor_inbox_busy]).toContain((refusal.body as { message: string }).message);
    expect(refusal.headers['retry-after']).toBeDefined();
    // every mail queued has gone to the receiver; no more than were accepted
    await until(async () => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from mails where recipient = ${inbox} and status = 'queued'`.execute(server.app.db);
      return rows[0]!.n === 0 ? true : undefined;
    }, 'the accepted requests\' mails to go');
    expect(smtp.inbox.filter((mail) => mail.to === inbox)).toHaveLength(sent);
    // and the day's limit holds afterwards, with the message from the schemas
    const later = await ask(api, 'counselor-recommendation', `other.${counter}@school.example.org`);
    expect(later.status).toBe(429);
    if (sent === fileItems.counselor_requests_per_day) expect(later.body).toMatchObject({ code: 'COUNSELOR_REQUESTS', message: apiMessages.counselor_requests_per_day });
  }, 120_000);

  it('holds one inbox to the mail limits however many applicants ask it, however it is spelled', async () => {
    const target_ = `Busy.Counselor+${counter}@gmail.com`;
    const statuses: number[] = [];
    for (let index = 0; index < 12; index++) {
      const { api } = await submitted();
      const spelled = index % 2 ? target_.toUpperCase() : target_.replace('+', `+x${index}`);
      const reply = await ask(api, 'transcript', spelled);
      statuses.push(reply.status);
      if (reply.status === 429) expect(reply.body).toMatchObject({ code: 'RATE_LIMITED', message: apiMessages.counselor_inbox_busy });
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429]);
  }, 60_000);

  it('takes the applicant\'s own upload of an item they provide after submission, as no form answer but within the quota', async () => {
    const { id, api } = await submitted({ test_optional: 'Y' });
    // the form's documents are locked at submission
    expect((await api.call('presignUpload', { body: { answer_key: 'hs_transcript' } })).status).toBe(409);
    expect((await api.call('presignItemUpload', { params: { item: 'transcript' } })).status).toBe(404);
    const presigned = await api.call('presignItemUpload', { params: { item: 'test-scores' } });
    expect(presigned.status).toBe(200);
    const fields = (presigned.body as { fields: Record<string, string> }).fields;
    expect((await postFile(server.app, fields, 'scores.png', png)).statusCode).toBe(204);
    // a key of the form's question or another item is not this item's
    expect((await api.call('registerItemDocument', { params: { item: 'test-scores' }, body: { file_key: fields.key!.replace('file-item/test-scores', 'hs_transcript'), file_name: 'a.png' } })).status).toBe(403);
    expect((await api.call('registerItemDocument', { params: { item: 'test-scores' }, body: { file_key: fields.key!, file_name: 'scores.png' } })).status).toBe(200);
    const result = await until(async () => {
      const { body } = await api.call('itemDocumentStatus', { params: { item: 'test-scores' } });
      return ['UNPROCESSED', 'IN_PROGRESS'].includes((body as { status: string }).status) ? undefined : body;
    }, 'the item upload to convert', 60_000);
    expect(result).toEqual({ status: 'COMPLETED' });
    const file = (await api.call('applicationFile')).body as ApplicationFileView;
    expect(file.items.find((item) => item.id === 'test-scores')).toMatchObject({ state: 'received' });
    const row = await server.app.db.selectFrom('file_items').select('changed_by').where('applicant_id', '=', id).where('item_id', '=', 'test-scores').executeTakeFirstOrThrow();
    expect(row.changed_by).toBe('applicant');
    expect(Object.keys((await api.call('documents')).body as object)).toEqual([]);
    // no form answer for the PDF copy or the export either, but in the quota's count
    expect(await documentsOf(server.app.db, id)).toEqual([]);
    expect((await exportedDocumentsOfMany(server.app.db, [id], true)).get(id)).toBeUndefined();
    expect(await convertedDocumentsOfMany(server.app.db, [id])).toEqual([]);
    expect((await uploadUsage(server.app.db, id)).documentBytes).toBe(png.length);
  }, 90_000);

  it('attaches a document the office received by post, through the same pipeline, with the office key only', async () => {
    const { id, api } = await submitted();
    const { key, name } = { key: (await makeOfficeKey(server.app.db, 'registrar', 'test')).key, name: 'registrar' };
    const office = new ApiSession(server.app);
    const base = `/api/office/applicants/${id}/file/items/transcript`;
    const bearer = { authorization: `Bearer ${key}` };
    // a session is not an office key; an unknown applicant or item is 404
    expect((await api.request('POST', `${base}/presigned-url`, {})).status).toBe(401);
    expect((await office.request('POST', `/api/office/applicants/${crypto.randomUUID()}/file/items/transcript/presigned-url`, {}, bearer)).status).toBe(404);
    expect((await office.request('POST', `/api/office/applicants/${id}/file/items/no-such-item/presigned-url`, {}, bearer)).status).toBe(404);
    const presigned = await office.request<{ fields: Record<string, string> }>('POST', `${base}/presigned-url`, {}, bearer);
    expect(presigned.status).toBe(200);
    expect((await postFile(server.app, presigned.body.fields, 'posted.png', png)).statusCode).toBe(204);
    expect((await office.request('POST', `${base}/document`, { file_key: presigned.body.fields.key, file_name: 'posted.png' }, bearer)).status).toBe(200);
    const result = await until(async () => {
      const { body } = await office.request<{ status: string }>('GET', `${base}/document`, undefined, bearer);
      return ['UNPROCESSED', 'IN_PROGRESS'].includes(body.status) ? undefined : body;
    }, 'the office upload to convert', 60_000);
    expect(result).toEqual({ status: 'COMPLETED' });
    const row = await server.app.db.selectFrom('file_items').select(['state', 'changed_by', 'document_key']).where('applicant_id', '=', id).where('item_id', '=', 'transcript').executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'received', changed_by: `office:${name}`, document_key: 'file-item:transcript' });
  }, 90_000);
});
