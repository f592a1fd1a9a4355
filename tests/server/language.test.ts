/**
 * The applicant's language on the server: the first visit follows Accept-Language, a
 * header link's choice is kept (cookie, and the account when signed in), <html lang>
 * follows it, replies and e-mails come in it, and the office's data does not change with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import messages from '../../schemas/auth/messages.json';
import spanishMessages from '../../schemas/i18n/es/auth/messages.json';
import { answersOf } from '../../src/server/db/repositories/profile-repository.ts';
import { ApiSession, STRONG_PASSWORD, outboxCode, outboxMail } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

const SPANISH = { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' };

describe('the applicant\'s language', () => {
  let server: TestServer;
  let counter = 0;
  const email = (label: string) => `${label}.${++counter}@example.org`;
  const htmlLang = (body: unknown) => /<html lang="([^"]+)">/.exec(String(body))?.[1];
  const languageOf = async (address: string) =>
    (await server.app.db.selectFrom('applicants').select('language').where('email', '=', address).executeTakeFirstOrThrow()).language;

  beforeAll(async () => {
    server = await startTestServer({ listen: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('follows Accept-Language on a first visit, in <html lang>, the page\'s title and the note for a browser without JavaScript', async () => {
    const visitor = new ApiSession(server.app);
    const spanish = String((await visitor.get('/about', SPANISH)).body);
    expect(htmlLang(spanish)).toBe('es');
    // a step is named before any script, as the app names it; a page without a name of its own is the application
    expect(spanish).toContain('<title>Sobre usted | Concordia Heights University</title>');
    expect(String((await visitor.get('/login', SPANISH)).body)).toContain('<title>Solicitud de Concordia Heights University</title>');
    expect(String((await visitor.get('/education-ug')).body)).toContain('<title>Your Education | Concordia Heights University</title>');
    expect(spanish).toContain('<noscript>Esta solicitud necesita que JavaScript esté activado.</noscript>');
    expect(htmlLang((await visitor.get('/about', { 'accept-language': 'fr-CA, en;q=0.8' })).body)).toBe('en');
    expect(htmlLang((await visitor.get('/about', { 'accept-language': 'de' })).body)).toBe('en');
    expect(htmlLang((await visitor.get('/about')).body)).toBe('en');
  });

  it('keeps a header link\'s choice in a cookie, over what the browser asks for, and shows the same page again', async () => {
    const visitor = new ApiSession(server.app);
    const chosen = await visitor.get('/education-ug?lang=es&x=1', { 'accept-language': 'en' });
    expect(chosen.status).toBe(303);
    expect(chosen.headers.location).toBe('/education-ug?x=1');
    expect(visitor.cookies.get('lang')).toBe('es');
    expect(htmlLang((await visitor.get('/education-ug', { 'accept-language': 'en' })).body)).toBe('es');
    await visitor.get('/login?lang=en', SPANISH);
    expect(htmlLang((await visitor.get('/login', SPANISH)).body)).toBe('en');
    // the same page, on this site: never a path that a browser reads as another host
    for (const path of ['//evil.example/x', '/\\evil.example/x']) {
      expect(String((await visitor.get(`${path}?lang=es`)).headers.location)).toMatch(/^\/(?![/\\])/);
    }
  });

  it('answers in Spanish, mails the code in Spanish, and keeps the language with the account', async () => {
    const visitor = new ApiSession(server.app);
    const address = email('signup-es');
    const signup = await visitor.post('/public/signup', { username: address, password: STRONG_PASSWORD }, SPANISH);
    expect(signup.status).toBe(200);
    expect(signup.body.message).toBe(spanishMessages.signup_sent.replace('{username}', address));
    const mail = await outboxMail(server.app, address);
    expect(mail.subject).toMatch(/^Confirme su cuenta de solicitud de /);
    expect(mail.body).toContain('Escríbalo en la página Confirme su cuenta');
    expect(await languageOf(address)).toBe('es');

    // a field's message from the account form's schema, in Spanish too
    const bad = await visitor.post('/public/signup', { username: 'not-an-email', password: STRONG_PASSWORD }, SPANISH);
    expect(bad.body.errors).toEqual({ username: ['Su dirección de correo electrónico debe ser válida.'] });

    // the reset link of an account made in Spanish goes out in Spanish, whatever browser asks for it
    await visitor.post('/public/confirm', { username: address, code: await outboxCode(server.app, address) });
    const other = new ApiSession(server.app);
    await other.post('/public/forgot-password', { username: address }, { 'accept-language': 'en' });
    const reset = await outboxMail(server.app, address);
    expect(reset.subject).toMatch(/^Restablezca la contraseña/);
    expect(reset.body).toContain('Elija una nueva contraseña aquí');
  });

  it('keeps the code out of the subject, and says never to share it, in both languages', async () => {
    // a subject shows in notifications and lock screens, and a relay that asks for "the code in the subject" gets it at a glance
    for (const [headers, warning] of [[{}, 'Never share this code with anyone: we will never ask you for it'], [SPANISH, 'Nunca comparta este código con nadie: nunca se lo pediremos']] as const) {
      const address = email('never-share');
      await new ApiSession(server.app).post('/public/signup', { username: address, password: STRONG_PASSWORD }, headers);
      const mail = await outboxMail(server.app, address);
      const code = /\b(\d{6})\b/.exec(mail.body)?.[1];
      expect(code).toBeDefined();
      expect(mail.subject).not.toContain(code);
      expect(mail.subject).not.toMatch(/\d{6}/);
      expect(mail.body).toContain(warning);
    }
  });

  it('remembers a signed-in applicant\'s choice in the account, and brings it to another browser at login', async () => {
    const address = email('switch');
    const applicant = await createConfirmedApplicant(server.app, address);
    expect(await languageOf(address)).toBe('en');
    await applicant.get('/about?lang=es');
    expect(await languageOf(address)).toBe('es');
    const forgot = await applicant.post('/public/forgot-password', { username: address });
    expect(forgot.body.message).toBe(spanishMessages.forgot_sent.replace('{username}', address));

    const otherBrowser = new ApiSession(server.app);
    const login = await otherBrowser.post('/public/login', { username: address, password: STRONG_PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.message).toBe(spanishMessages.login_success);
    expect(otherBrowser.cookies.get('lang')).toBe('es');
  });

  it('stores the same answers, with English labels, whatever the language', async () => {
    const [englishAddress, spanishAddress] = [email('answers-en'), email('answers-es')];
    const english = await createConfirmedApplicant(server.app, englishAddress);
    const spanish = await createConfirmedApplicant(server.app, spanishAddress);
    await spanish.get('/about?lang=es');
    const answers = { first_name: 'Ada', gender: 'F', citizenship: 'DEU', country: 'USA', grad_month: '05' };
    for (const session of [english, spanish]) expect((await session.put('/api/answer', answers)).status).toBe(200);
    const stored = async (address: string) => {
      const { id } = await server.app.db.selectFrom('applicants').select('id').where('email', '=', address).executeTakeFirstOrThrow();
      return answersOf(server.app.db, id);
    };
    const [inEnglish, inSpanish] = [await stored(englishAddress), await stored(spanishAddress)];
    expect(inSpanish).toEqual(inEnglish);
    expect(inSpanish).toMatchObject({ gender: 'F', gender_desc: 'Female', citizenship_desc: 'Germany', grad_month_desc: 'May' });
  });

  it('keeps staff\'s service view in English, and the English reply English', async () => {
    const visitor = new ApiSession(server.app);
    visitor.cookies.set('lang', 'es');
    expect(htmlLang((await visitor.get('/about?service_token=x', SPANISH)).body)).toBe('en');
    expect(htmlLang((await visitor.get('/about?service_token=x&lang=es')).body)).toBe('es');
    const english = new ApiSession(server.app);
    const failed = await english.post('/public/login', { username: email('nobody'), password: STRONG_PASSWORD });
    expect(failed.body.message).toBe(messages.login_failed);
  });
});
