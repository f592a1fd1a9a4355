import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import spanishMessages from '../../schemas/i18n/es/text/api-messages.json';
import apiMessages from '../../schemas/text/api-messages.json';
import messages from '../../schemas/auth/messages.json';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

/**
 * The server's drawing of the form pages (src/server/plugins/page-drawing.ts) and their post
 * without scripts (src/server/routes/pages/page-post-routes.ts): a page comes drawn with the
 * applicant's answers in their language, a post saves through the same ordered save and
 * comes back 303 to a page that says what it did, another site's post is refused, and a
 * drawing that fails or does not come in time leaves the plain page.
 */

const cookieOf = (api: ApiSession, extra: Record<string, string> = {}) => [...new Map([...api.cookies, ...Object.entries(extra)])].map(([name, value]) => `${name}=${value}`).join('; ');
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const answersOf = async (api: ApiSession) => (await api.get<{ answer: Record<string, unknown> }>('/api/profile')).body.answer;

describe('form pages drawn on the server', () => {
  let server: TestServer;
  let counter = 0;
  const applicant = () => createConfirmedApplicant(server.app, `drawn${++counter}@example.org`);
  // a header given as '' is left out
  const post = (api: ApiSession | null, body: string, headers: Record<string, string> = {}) => server.app.inject({
    method: 'POST', url: '/about', payload: body,
    headers: Object.fromEntries(Object.entries({
      'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', ...(api ? { cookie: cookieOf(api) } : {}), ...headers,
    }).filter(([, value]) => value !== '')),
  });

  beforeAll(async () => {
    server = await startTestServer({ listen: false, env: { RENDER_WORKERS: '1' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('draws a form page with the applicant\'s answers, in their language, as a form with named controls', async () => {
    const api = await applicant();
    await api.put('/api/answer', { first_name: 'Drawn', gender: 'F', optin_sms_ind: true });
    const page = await server.app.inject({ method: 'GET', url: '/about', headers: { cookie: cookieOf(api, { lang: 'es' }) } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="es">');
    expect(page.body).toMatch(/<div id="root" data-drawn="">/);
    expect(page.body).toMatch(/<form[^>]*method="post"/);
    expect(page.body).toMatch(/<input[^>]*name="first_name"[^>]*value="Drawn"|<input[^>]*value="Drawn"[^>]*name="first_name"/);
    expect(page.body).toMatch(/<input[^>]*(checked=""[^>]*value="F"|value="F"[^>]*checked="")/);
    expect(page.body).toContain(spanishMessages.save_page);
    expect(page.headers['cache-control']).toBe('private, no-cache');
  });

  it('draws the page again once an answer changes, and each applicant\'s page with their own answers', async () => {
    const firstName = (body: string) => /<input[^>]*name="first_name"[^>]*>/.exec(body)?.[0].match(/value="([^"]*)"/)?.[1] ?? '';
    const drawn = async (api: ApiSession | null) => {
      const page = await server.app.inject({ method: 'GET', url: '/about', headers: api ? { cookie: cookieOf(api) } : {} });
      expect(page.body).toMatch(/<div id="root" data-drawn="">/);
      return firstName(page.body);
    };
    const [one, other] = [await applicant(), await applicant()];
    await one.put('/api/answer', { first_name: 'Before' });
    await other.put('/api/answer', { first_name: 'Other' });
    expect(await drawn(one)).toBe('Before');
    expect(await drawn(one)).toBe('Before');
    await one.put('/api/answer', { first_name: 'After' });
    expect(await drawn(one)).toBe('After');
    expect(await drawn(other)).toBe('Other');
    expect(await drawn(null)).toBe('');
  });

  it('answers a return visit whose page has not changed with 304, and one whose answers changed with the new page', async () => {
    const api = await applicant();
    await api.put('/api/answer', { first_name: 'Kept' });
    const visit = (headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url: '/about', headers: { cookie: cookieOf(api), ...headers } });
    const first = await visit();
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await visit({ 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    // a reload that asks for a fresh copy gets the page
    expect((await visit({ 'if-none-match': etag, 'cache-control': 'no-cache' })).statusCode).toBe(200);
    // another visitor's copy is not this page
    expect((await server.app.inject({ method: 'GET', url: '/about', headers: { 'if-none-match': etag } })).statusCode).toBe(200);

    await api.put('/api/answer', { first_name: 'Changed' });
    const changed = await visit({ 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body).toMatch(/<input[^>]*name="first_name"[^>]*value="Changed"|<input[^>]*value="Changed"[^>]*name="first_name"/);
  });

  it('leaves the staff view and the account pages to the browser', async () => {
    for (const url of ['/login', '/signup', '/about?service_token=x']) {
      const page = await server.app.inject({ method: 'GET', url });
      expect(page.body, url).toContain('<div id="root"></div>');
    }
  });

  it('saves a post without scripts through the ordered save, and comes back to the page with what needs attention', async () => {
    const api = await applicant();
    await api.put('/api/answer', { optin_sms_ind: true, last_name: 'Kept' });
    const response = await post(api, form({
      _fields: 'first_name gender optin_sms_ind test_taken_ind', first_name: 'Posted', gender: 'M', test_taken_ind: 'Y',
    }));
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/about?saved');
    expect(response.headers['cache-control']).toBe('no-store');
    const answers = await answersOf(api);
    // the box named in the form but not posted was unticked; another page's key is not taken from this one's post
    expect(answers).toMatchObject({ first_name: 'Posted', gender: 'M', optin_sms_ind: false, last_name: 'Kept' });
    expect(answers.test_taken_ind).toBeUndefined();
    expect(answers.gender_desc).toEqual(expect.any(String));
    // back on the page: the answers are incomplete, so the server lists what needs attention, each a link to its field
    const page = await server.app.inject({ method: 'GET', url: '/about?saved', headers: { cookie: cookieOf(api) } });
    expect(page.body).toContain(apiMessages.page_problems);
    expect(page.body).toMatch(/<noscript data-slot="page-notice"><div class="page-notice[^"]*" role="alert">.*<a href="#\w+">/);
  });

  it('writes an answer from a post only where no newer change is stored', async () => {
    const api = await applicant();
    // a tab's change stamped a minute from now (the most a clock is believed ahead) is newer than the post
    await api.put('/api/answer', { first_name: 'FromTab', _clock: { first_name: Date.now() + 55_000 } });
    expect((await post(api, form({ _fields: 'first_name middle_name', first_name: 'FromPost', middle_name: 'Also' }))).statusCode).toBe(303);
    expect(await answersOf(api)).toMatchObject({ first_name: 'FromTab', middle_name: 'Also' });
  });

  it('refuses a post from another site, and saves nothing', async () => {
    const api = await applicant();
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { 'sec-fetch-site': '', origin: 'https://evil.example' }] as Record<string, string>[]) {
      const response = await post(api, form({ _fields: 'first_name', first_name: 'Forged' }), headers);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: messages.cross_site, code: 'CROSS_SITE' });
    }
    expect((await answersOf(api)).first_name).toBeUndefined();
  });

  it('tells an applicant who posts after submitting, in words on the page, that nothing changed', async () => {
    const api = await applicant();
    expect((await api.put('/api/answer', completeApplication())).status).toBe(200);
    const before = (await answersOf(api)).first_name;
    expect((await api.post('/api/submit')).status).toBe(200);
    for (const [language, texts] of [['en', apiMessages], ['es', spanishMessages]] as const) {
      const response = await post(api, form({ _fields: 'first_name', first_name: 'TooLate' }));
      expect(response.statusCode).toBe(303);
      const page = await server.app.inject({ method: 'GET', url: response.headers.location as string, headers: { cookie: cookieOf(api, { lang: language }) } });
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.body).toContain(texts.submitted);
    }
    expect((await answersOf(api)).first_name).toBe(before);
  });

  it('takes only a form post\'s body, and tells a visitor without an account that answers are saved to one', async () => {
    const api = await applicant();
    const json = await server.app.inject({ method: 'POST', url: '/about', payload: '{"first_name":"Json"}', headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', cookie: cookieOf(api) } });
    expect(json.statusCode).toBe(400);
    expect(json.json().code).toBe('INVALID_REQUEST');
    const anonymous = await post(null, form({ _fields: 'first_name', first_name: 'Nobody' }));
    expect(anonymous.statusCode).toBe(303);
    const page = await server.app.inject({ method: 'GET', url: anonymous.headers.location as string });
    expect(page.body).toContain(apiMessages.sign_in_to_save);
  });
});

describe('a drawing that does not come', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ssr-stand-in-'));
    // a worker that starts and never answers, and one that fails every page
    for (const [language, reply] of [['en', ''], ['es', "parentPort.postMessage({ id, error: 'no drawing here' });"]] as const) {
      mkdirSync(join(dir, language));
      writeFileSync(join(dir, language, 'render-worker.js'), `import { parentPort } from 'node:worker_threads';\nparentPort.on('message', ({ id }) => { ${reply} });\nparentPort.postMessage({ ready: true });\n`);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('sends the plain page when the drawing times out or fails', async () => {
    const server = await startTestServer({ listen: false, env: { RENDER_WORKERS: '1', SSR_DIR: dir, RENDER_TIMEOUT_MS: '300' } });
    try {
      for (const lang of ['en', 'es']) {
        const page = await server.app.inject({ method: 'GET', url: '/about', headers: { cookie: `lang=${lang}` } });
        expect(page.statusCode, lang).toBe(200);
        expect(page.body, lang).toContain('<div id="root"></div>');
        expect(page.body, lang).toContain(`<html lang="${lang}">`);
      }
    } finally {
      await server.close();
    }
  });
});

describe('a drawing the browser drew afresh', () => {
  it('is a warning in the server\'s log with the page and section, and one address cannot fill the log', async () => {
    const log: string[] = [];
    const server = await startTestServer({ listen: false, log: (line) => log.push(line) });
    const report = (body: unknown) => server.app.inject({
      method: 'POST', url: '/public/page-problem', payload: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', cookie: 'lang=es' },
    });
    try {
      const sent = await report({ problem: 'section-drawn-afresh', page: '/education-ug', section: 'colleges' });
      expect(sent.statusCode).toBe(200);
      const lines = log.map((line) => JSON.parse(line) as { level: number; pageProblem?: unknown });
      expect(lines.find((line) => line.pageProblem)).toMatchObject({
        level: 40, pageProblem: { problem: 'section-drawn-afresh', page: '/education-ug', section: 'colleges', language: 'es' },
      });
      // only the contract's few words: no answer, no markup
      expect((await report({ problem: 'section-drawn-afresh', page: '/about', answers: { first_name: 'Ada' } })).statusCode).toBe(400);
      expect((await report({ problem: 'section-drawn-afresh', page: '/about<script>' })).statusCode).toBe(400);
      let status = 200;
      for (let count = 0; count < 40 && status === 200; count++) status = (await report({ problem: 'hydration-error', page: '/about' })).statusCode;
      expect(status).toBe(429);
    } finally {
      await server.close();
    }
  });
});
