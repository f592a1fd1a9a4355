import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import messages from '../../schemas/auth/messages.json';
import documentsText from '../../schemas/documents.json';
import apiMessages from '../../schemas/text/api-messages.json';
import { makeOfficeKey } from '../../src/server/file-items/office-keys.ts';
import { signServiceToken } from '../../src/server/pdf/service-token.ts';
import { readCsv } from '../../scripts/lookups/csv-lines.ts';
import { importLookups } from '../../scripts/lookups/import-lookups.ts';
import { liveCounselorLink } from '../../support/counselor-link.ts';
import { ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { makeImage, makePdf } from '../../support/document-fixtures.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { conversionResult, postFile, uploadThroughApi } from '../../support/uploads.ts';
import { listRoutes, routeKind, type Route } from '../fixtures/attack-routes.ts';
import { documentKeyOf } from '../../src/server/documents/document-service.ts';
import {
  activeContent, htmlAsImage, jpegClaiming, jpegWithScript, pdfHtmlPolyglot, pdfWithActions, pdfZipPolyglot, pngClaiming,
} from '../../support/fixtures/hostile-files.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

/**
 * Hostile input: bodies too large or too deep, keys and values the form does
 * not know, script typed as an answer, paths in names and keys, and files built to hurt
 * (image bombs, polyglots, PDFs whose links and forms run script). Each is refused or
 * made harmless with a 4xx or a FAILED conversion and a message; the server stays up.
 */

const messagesOfDocuments = documentsText.messages;
let browser: Browser;
let jpeg: Buffer;
beforeAll(async () => {
  browser = await workerBrowser();
  jpeg = await makeImage(browser, 'jpeg', { width: 400, height: 300 });
});
afterAll(async () => {
  await closeContexts(browser);
});

/**
 * The JSON write routes (the upload route takes multipart, and the one-click unsubscribe a
 * form behind its token: each is tried on its own, in its attack test).
 */
function jsonWrites(routes: Route[]): Route[] {
  return routes.filter((route) => ['POST', 'PUT', 'DELETE'].includes(route.method) && routeKind(route) !== 'upload' && routeKind(route) !== 'unsubscribe');
}

/** Routes that read their JSON body, so a body they cannot use must be refused with 400. */
const READS_BODY = new Set([
  'PUT /api/answer', 'POST /api/web-status', 'PUT /api/last-page', 'POST /api/validations', 'PUT /api/add-another', 'PUT /api/tabs',
  'POST /api/presigned-url', 'POST /api/pdf/document-answer/:key', 'PUT /api/office/applicants/:applicantId/file/items/:itemId',
  'POST /public/signup', 'POST /public/resend-confirm', 'POST /public/confirm', 'POST /public/login', 'POST /public/forgot-password', 'POST /public/reset-password',
]);


describe.each(databaseTargets())('hostile input on $name', (target) => {
  let server: TestServer;
  let counter = 0;
  const applicant = () => createConfirmedApplicant(server.app, `hostile${++counter}.${target.name}@example.org`);

  async function applicantId(api: ApiSession): Promise<string> {
    const email = (await api.get<{ username: string }>('/api/profile')).body.username;
    return (await server.app.db.selectFrom('applicants').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  }

  /** A live counselor link: a counselor's route reads its body past the link's guard only. */
  let counselorLink: Promise<string> | undefined;
  const counselorToken = () => (counselorLink ??= liveCounselorLink(server.app, `hostile.counselor.${target.name}@example.org`).then((link) => link.token));

  /** Sends a raw body to a route with the applicant's cookies (and a counselor's link), as our pages would (and the office API with its key). */
  async function raw(api: ApiSession, route: Route, payload: string) {
    return server.app.inject({
      method: route.method as 'POST',
      url: route.url.replace(':key', 'supporting_document').replace(':item', 'test-scores').replace(':applicantId', '00000000-0000-4000-8000-000000000000').replace(':itemId', 'transcript'),
      payload,
      headers: {
        'content-type': 'application/json', 'sec-fetch-site': 'same-origin',
        cookie: [...api.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(routeKind(route) === 'counselor' ? { 'x-counselor-link': await counselorToken() } : {}),
        ...(routeKind(route) === 'office' ? { authorization: `Bearer ${officeKey}` } : {}),
      },
    });
  }

  async function expectServerUp(): Promise<void> {
    const health = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
  }

  let officeKey = '';
  beforeAll(async () => {
    server = await startTestServerOn(target);
    officeKey = (await makeOfficeKey(server.app.db, 'hostile input', 'test')).key;
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('bodies', () => {
    it('answers an oversized JSON body 413 with our message on every JSON write route', async () => {
      const api = await applicant();
      const big = JSON.stringify({ first_name: 'x'.repeat(300 * 1024) });
      const routes = jsonWrites(listRoutes(server.app));
      expect(routes.length).toBeGreaterThan(15);
      for (const route of routes) {
        const response = await raw(api, route, big);
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(413);
        expect(response.json(), `${route.method} ${route.url}`).toEqual({ message: messages.body_too_large, code: 'BODY_TOO_LARGE' });
        expect(response.headers['content-type']).toMatch(/^application\/json/);
      }
      await expectServerUp();
    });

    it('answers deeply nested JSON at once, never with a crash or a hang: 400 where the body is read', async () => {
      const api = await applicant();
      const depth = 100_000; // 200 KB, under the body limit
      const bodies = ['['.repeat(depth) + ']'.repeat(depth), '{"a":'.repeat(depth / 4) + '1' + '}'.repeat(depth / 4), `{"first_name":${'['.repeat(5000)}${']'.repeat(5000)}}`];
      // a hang would never answer: the test's time-out catches it, no stop-watch needed
      for (const route of jsonWrites(listRoutes(server.app))) {
        for (const body of bodies) {
          const response = await raw(api, route, body);
          const label = `${route.method} ${route.url}`;
          expect(response.statusCode, label).toBeLessThan(500);
          if (READS_BODY.has(`${route.method} ${route.url}`)) expect([400, 403], label).toContain(response.statusCode); // 403: no file key of yours
          if (response.statusCode >= 400) expect(response.json().message, label).toEqual(expect.any(String));
        }
      }
      await expectServerUp();
      expect((await api.get('/api/profile')).body.answer).toEqual({});
    });

    it('refuses prototype pollution, malformed JSON and text a database cannot hold, with 400', async () => {
      const api = await applicant();
      const routes = jsonWrites(listRoutes(server.app));
      for (const payload of [
        '{"__proto__":{"isAdmin":true},"first_name":"x"}',
        '{"constructor":{"prototype":{"isAdmin":true}}}',
        '{"first_name":"x"',
        '{"first_name":"a\\u0000b"}',
        '{"first_name":"\\ud800"}',
        '{"a\\u0000":"b"}',
      ]) {
        for (const route of routes) {
          const response = await raw(api, route, payload);
          const label = `${route.method} ${route.url} ${payload}`;
          expect(response.statusCode, label).toBeLessThan(500);
          if (READS_BODY.has(`${route.method} ${route.url}`)) expect([400, 403], label).toContain(response.statusCode);
        }
      }
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      const nul = await api.put('/api/answer', { first_name: 'a\u0000b' });
      expect(nul.body).toEqual({ message: apiMessages.bad_answer.replace('{key}', 'first_name'), code: 'BAD_TEXT' });
      for (const url of ['/lookup/find?category=hs_ceeb&id=01%0012', '/lookup/find?category=hs_ceeb&text=a%00b', `/public/tmp?token=${'a'.repeat(30)}%00`]) {
        expect((await server.app.inject({ method: 'GET', url })).json(), url).toMatchObject({ code: 'BAD_TEXT' });
      }
      expect((await api.get('/api/profile')).body.answer).toEqual({});
      await expectServerUp();
    });
  });

  describe('answers', () => {
    it('refuses unknown, prototype-named and path-like keys, and answers of the wrong type, storing nothing', async () => {
      const api = await applicant();
      for (const key of ['favourite_colour', 'toString', 'constructor', 'valueOf', 'hasOwnProperty', 'toString_desc', '../first_name', 'first_name/../last_name', '..', 'FIRST_NAME', 'first_name ', 'answers.first_name', 'first_name[0]']) {
        const response = await api.put('/api/answer', { [key]: 'x' });
        expect(response.status, key).toBe(400);
        expect(response.body.code, key).toBe('UNKNOWN_KEYS');
      }
      // not a text or a yes/no at all, or longer than any answer: the contract refuses the request (schemas/api/)
      for (const value of [null, 42, [], ['Ada'], {}, { toString: 'Ada' }, 'x'.repeat(1501)]) {
        const response = await api.put('/api/answer', { first_name: value });
        expect(response.status, JSON.stringify(value)).toBe(400);
        expect(response.body.code, JSON.stringify(value)).toBe('INVALID_REQUEST');
      }
      // a yes/no where the question asks for text: the form model refuses it
      const yesForAName = await api.put('/api/answer', { first_name: true });
      expect([yesForAName.status, yesForAName.body.code]).toEqual([400, 'BAD_ANSWER']);
      for (const value of ['true', 1, 0, null, [], {}]) {
        expect((await api.put('/api/answer', { legal_agree: value })).status, JSON.stringify(value)).toBe(400);
      }
      // the other lists the server keeps are checked the same way
      for (const [method, url, body] of [
        ['PUT', '/api/add-another', { button_id: 'toString', num_components: 2 }],
        ['PUT', '/api/add-another', { button_id: '__proto__', num_components: 2 }],
        ['PUT', '/api/add-another', { button_id: 'add_college', num_components: 1e9 }],
        ['PUT', '/api/add-another', { button_id: 'add_college', num_components: '2' }],
        ['PUT', '/api/tabs', { tab_id: 'constructor', chosen_tab: 'x' }],
        ['PUT', '/api/tabs', { tab_id: 'hs_classes_tabs', chosen_tab: '../transcript' }],
        ['PUT', '/api/last-page', { last_page: '../../etc/passwd' }],
        ['PUT', '/api/last-page', { last_page: 'https://evil.example/about' }],
        ['POST', '/api/web-status', { web_status: { $ne: 'x' } }],
        ['POST', '/api/validations', { first_name: [{ toString: 'x' }] }],
      ] as const) {
        expect((await api.request(method, url, body)).status, `${url} ${JSON.stringify(body)}`).toBe(400);
      }
      const profile = (await api.get<Record<string, unknown>>('/api/profile')).body;
      expect(profile.answer).toEqual({});
      expect(profile.last_page).toBeNull();
      expect((await api.get('/api/add-another')).body).toEqual({});
      expect((await api.get('/api/tabs')).body).toEqual({});
    });

    it('stores script and markup typed as answers as text, exactly, and serves it only as JSON', async () => {
      const api = await applicant();
      const hostile = {
        first_name: '<img src=x onerror=alert(document.cookie)>',
        last_name: '"><script>alert(1)</script>',
        middle_name: "Robert'); DROP TABLE answers;--",
        maid_name: '{{constructor.constructor("alert(1)")()}}',
        address_line_1: 'x\u202eevil\u200b <svg onload=alert(1)>',
      };
      expect((await api.put('/api/answer', hostile)).status).toBe(200);
      const profile = await server.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: [...api.cookies].map(([name, value]) => `${name}=${value}`).join('; ') } });
      expect(profile.headers['content-type']).toMatch(/^application\/json/);
      expect(profile.headers['x-content-type-options']).toBe('nosniff');
      expect(profile.json().answer).toEqual(hostile);
      expect(await server.app.db.selectFrom('answers').select('key').execute()).not.toEqual([]); // the table is still there
      const id = await applicantId(api);
      const view = await server.app.inject({ method: 'GET', url: `/service/tmp-pdf?service_token=${encodeURIComponent(signServiceToken(server.app.serviceSecret, id, 60_000))}` });
      expect(view.headers['content-type']).toMatch(/^application\/json/);
      expect(view.json().answer).toEqual(hostile);
    });
  });

  describe('names and keys', () => {
    it('keeps a file name as display text only: the object stays in the applicant\'s folder', async () => {
      const api = await applicant();
      const id = await applicantId(api);
      for (const [name, accepted] of [
        ['../../etc/passwd.pdf', true],
        ['..\\..\\boot.ini.pdf', true],
        ['/etc/passwd.pdf', true],
        ['<img src=x onerror=1>.pdf', true],
        ['report.pdf\u0000.exe', false],
        ['report.exe', false],
        ['report.pdf.exe', false],
        ['.pdf', true],
      ] as const) {
        const presigned = (await api.post<{ fields: Record<string, string> }>('/api/presigned-url', { answer_key: 'supporting_document' })).body.fields;
        expect(presigned.key).toMatch(new RegExp(`^uploads/${id}/supporting_document/[0-9a-f-]{36}$`));
        // the name the browser gives the file part is ignored as well
        expect((await postFile(server.app, presigned, name, await makePdf())).statusCode, name).toBe(204);
        const registered = await api.post('/api/pdf/document-answer/supporting_document', { file_key: presigned.key, file_name: name });
        expect(registered.status, name).toBe(accepted ? 200 : 400);
        if (!accepted) continue;
        expect((await conversionResult(api, 'supporting_document')).status, name).toBe('COMPLETED');
        expect((await api.get('/api/document-answer')).body, name).toEqual({ supporting_document: { file_name: name, file_size: expect.any(Number) } });
        const row = await server.app.db.selectFrom('documents').select(['file_key', 'pdf_key']).where('applicant_id', '=', id).executeTakeFirstOrThrow();
        expect(row.file_key).toBe(documentKeyOf(presigned.key!));
        expect(row.file_key).toMatch(new RegExp(`^documents/${id}/supporting_document/[0-9a-f-]{36}$`));
        expect(row.pdf_key).toMatch(new RegExp(`^converted/${id}/supporting_document/[0-9a-f-]{36}\\.pdf$`));
      }
      // nothing was written beside the objects folder
      expect(readdirSync(server.config.dataDir).sort()).not.toContain('etc');
      expect(existsSync(join(server.config.dataDir, '..', 'etc', 'passwd.pdf'))).toBe(false);
    });

    it('refuses object keys that leave the storage folder, and upload keys nobody signed', async () => {
      const api = await applicant();
      for (const key of ['../../etc/passwd', 'uploads/../../../etc/passwd', '/etc/passwd', 'uploads/a/../../b', 'uploads/%2e%2e/x', 'uploads/a\\..\\b']) {
        await expect(server.app.storage.get(key), key).rejects.toThrow(/refused object key/);
        await expect(server.app.storage.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toThrow();
        await expect(server.app.storage.presignPost(key, { maxBytes: 10, expiresInSeconds: 10 }), key).rejects.toThrow();
        expect(await server.app.storage.exists(key), key).toBe(false);
      }
      const presigned = (await api.post<{ fields: Record<string, string> }>('/api/presigned-url', { answer_key: 'hs_transcript' })).body.fields;
      for (const key of ['../../../etc/cron.d/x', `${presigned.key}/../../x`, 'pdfs/x.pdf']) {
        const response = await postFile(server.app, { ...presigned, key }, 'x.png', Buffer.from('x'));
        expect(response.statusCode, key).toBe(403);
      }
      for (const key of ['..%2F..%2Fetc%2Fpasswd', '..', 'toString', '__proto__', 'hs_transcript%2F..%2F..']) {
        for (const method of ['GET', 'POST', 'DELETE'] as const) {
          const response = await api.request(method, `/api/pdf/document-answer/${key}`, method === 'GET' ? undefined : {});
          expect([400, 404], `${method} ${key}`).toContain(response.status);
        }
      }
      await expectServerUp();
    });
  });

  describe('files', () => {
    it('fails an image that claims 20000 x 20000 pixels with the schema message, and keeps converting', async () => {
      const api = await applicant();
      for (const [name, bytes] of [['huge.png', pngClaiming(20_000, 20_000)], ['huge.jpg', jpegClaiming(60_000, 60_000)]] as const) {
        await uploadThroughApi(server.app, api, 'hs_transcript', name, bytes);
        expect(await conversionResult(api, 'hs_transcript'), name).toEqual({ status: 'FAILED', message: messagesOfDocuments.image_too_large });
      }
      // a bomb under the pixel limit: 36 megapixels of zeros in a 100-byte file
      await uploadThroughApi(server.app, api, 'activ_resume', 'zeros.png', pngClaiming(6_000, 6_000));
      expect(['COMPLETED', 'FAILED']).toContain((await conversionResult(api, 'activ_resume', 60_000)).status);
      await expectServerUp();
      await uploadThroughApi(server.app, api, 'supporting_document', 'after.pdf', await makePdf(['After the bombs']));
      expect((await conversionResult(api, 'supporting_document')).status).toBe('COMPLETED');
    });

    it('converts polyglots to the kind their name claims only, leaving the hidden zip or page behind', async () => {
      const api = await applicant();
      const id = await applicantId(api);
      const converted = async (key: string) => {
        const row = await server.app.db.selectFrom('documents').select('pdf_key').where('applicant_id', '=', id).where('answer_key', '=', key).executeTakeFirstOrThrow();
        return server.app.storage.get(row.pdf_key!);
      };
      const cases: [string, string, Buffer, string | undefined][] = [
        ['hs_transcript', 'both.pdf', await pdfZipPolyglot(), undefined],
        ['activ_resume', 'both.pdf', await pdfHtmlPolyglot(), undefined],
        ['supporting_document', 'photo.jpg', jpegWithScript(jpeg), undefined],
        ['hs_transcript', 'both.docx', await pdfZipPolyglot(), messagesOfDocuments.not_real_type.replace('{extension}', 'Word (.docx)')],
        ['activ_resume', 'page.png', htmlAsImage, messagesOfDocuments.not_real_type.replace('{extension}', 'PNG')],
        ['supporting_document', 'page.jpg', htmlAsImage, messagesOfDocuments.not_real_type.replace('{extension}', 'JPEG')],
      ];
      for (const [key, name, bytes, refusal] of cases) {
        expect(activeContent(bytes).length, name).toBeGreaterThan(0); // the fixture does hide something
        await uploadThroughApi(server.app, api, key, name, bytes);
        const result = await conversionResult(api, key);
        if (refusal) {
          expect(result, name).toEqual({ status: 'FAILED', message: refusal });
          continue;
        }
        expect(result.status, name).toBe('COMPLETED');
        const pdf = await converted(key);
        expect(activeContent(pdf), name).toEqual([]);
      }
    });

    it('removes every action from a PDF\'s links, forms, pages and catalogue, keeping its text and its web links', async () => {
      const api = await applicant();
      const id = await applicantId(api);
      const bytes = await pdfWithActions();
      expect(activeContent(bytes)).toEqual(expect.arrayContaining(['/JavaScript', '/JS', 'javascript:', '/Launch', '/SubmitForm', '/EmbeddedFile', '/XFA', '/OpenAction', '/AA', '/Next']));
      await uploadThroughApi(server.app, api, 'supporting_document', 'links.pdf', bytes);
      expect((await conversionResult(api, 'supporting_document')).status).toBe('COMPLETED');
      const row = await server.app.db.selectFrom('documents').select('pdf_key').where('applicant_id', '=', id).executeTakeFirstOrThrow();
      const cleaned = await server.app.storage.get(row.pdf_key!);
      expect(activeContent(cleaned)).toEqual([]);
      expect(cleaned.toString('latin1')).toContain('/URI (https://example.org/)');
      expect(pdfText(cleaned)).toContain('A letter with links');
    });
  });

  describe('look-ups', () => {
    it('answers long, quoted and pattern-like look-up texts as plain searches', async () => {
      // schools to find: a text read as a pattern or as SQL (%, _, ' or 1=1) would find them all
      await importLookups(server.app.db, 'hs_ceeb', readCsv(readFileSync(join(import.meta.dirname, '../fixtures/lookups/hs_ceeb.csv'), 'utf8')));
      const find = (text: string) => server.app.inject({ method: 'GET', url: `/lookup/find?category=hs_ceeb&text=${encodeURIComponent(text)}` });
      expect((await find('lincoln')).json().length).toBeGreaterThan(1); // the schools are there to be found
      // none of these holds a word of a school's name: read as plain text, they find nothing
      for (const text of ['x'.repeat(8000), "' or 1=1 --", '%', '_', '\\', '<script>', 'l_ncoln', 'linc%n']) {
        const response = await find(text);
        expect(response.statusCode, text).toBe(200);
        expect(response.json(), text).toEqual([]);
      }
      // operators of a full-text or regular-expression query are only punctuation around the words
      const names = async (text: string) => (await find(text)).json().map((row: { text: string }) => row.text);
      expect(await names('lincoln & | ! :* ()')).toEqual(expect.arrayContaining(['LINCOLN HS', 'ABRAHAM LINCOLN HIGH SCHOOL']));
      for (const name of await names('lincoln & | ! :* ()')) expect(name).toMatch(/\bLINCOLN/);
      for (const name of await names('.*(a+)+$')) expect(name).toMatch(/\bA/);
      await expectServerUp();
    });
  });
});
