/**
 * The mail that tells an applicant their application arrived, through a real SMTP server:
 * sent once per submission, in the account's language, naming the applicant, the time of
 * submission as they read dates and in the university's time zone, where the PDF copy is
 * and how to reach the admissions office.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import documents from '../../schemas/documents.json';
import spanishDocuments from '../../schemas/i18n/es/documents.json';
import spanishPartner from '../../schemas/i18n/es/partner.json';
import partner from '../../schemas/partner.json';
import { ApiSession, STRONG_PASSWORD } from '../../support/api-session.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { confirmationCodeOf, startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';

describe.each(databaseTargets())('the submission e-mail on $name', (target) => {
  let smtp: SmtpReceiver;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServerOn(target, { listen: false, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  /** An account signed up by a browser that asks for `language`, confirmed with the mailed code, signed in. */
  async function applicant(email: string, language: string): Promise<ApiSession> {
    const api = new ApiSession(server.app);
    const headers = { 'accept-language': language };
    expect((await api.post('/public/signup', { username: email, password: STRONG_PASSWORD }, headers)).status).toBe(200);
    const code = confirmationCodeOf(await smtp.waitFor(email));
    expect((await api.post('/public/confirm', { username: email, code }, headers)).status).toBe(200);
    expect((await api.post('/public/login', { username: email, password: STRONG_PASSWORD }, headers)).status).toBe(200);
    return api;
  }

  const submittedAt = async (email: string) => (await server.app.db.selectFrom('web_status_entries as s')
    .innerJoin('applicants as a', 'a.id', 's.applicant_id').select('s.created_at')
    .where('a.email', '=', email).where('s.web_status', '=', 'submitted').executeTakeFirstOrThrow()).created_at;

  /** The time as a reader of `locale` writes it, in the university's time zone, its name spelled out. */
  const timeIn = (at: Date, locale: string) => new Intl.DateTimeFormat(locale, {
    year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: partner.time_zone, timeZoneName: 'long',
  }).format(at);

  it('tells an English-speaking applicant their application arrived, once, with when, the PDF copy and the office', async () => {
    const email = `submitted.en.${target.name}@example.org`;
    const api = await applicant(email, 'en-US,en;q=0.9');
    expect((await api.put('/api/answer', completeApplication())).status).toBe(200);
    expect((await api.post('/api/submit', {})).status).toBe(200);

    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe(`${partner.short_name} received your application`);
    // sent under the name of schemas/text/mail.json, from MAIL_FROM's address
    expect(mail.from).toMatch(new RegExp(`^"?${partner.name} Admissions"? <[^>]+>$`));
    expect(mail.text).toMatch(/^Dear Ada Lovelace,/);
    expect(mail.text).toContain(`We received your application on ${timeIn(await submittedAt(email), 'en')}.`);
    expect(mail.text).toMatch(/(Central Standard Time|Central Daylight Time)\./);
    expect(mail.text).toContain(`/login and choose "${documents.messages.download_pdf}".`);
    for (const contact of [partner.help_email, partner.phone, partner.admissions_office, partner.name, partner.address.line_1]) expect(mail.text).toContain(contact);

    // a second submit changes nothing, and mails nothing: the next mail to this address is the one asked for after it
    expect((await api.post('/api/submit', {})).status).toBe(200);
    expect((await new ApiSession(server.app).post('/public/forgot-password', { username: email })).status).toBe(200);
    expect((await smtp.waitFor(email)).subject).toMatch(/^Reset your /);
    expect(smtp.inbox.filter((item) => item.to === email && /received your application/.test(item.subject))).toHaveLength(1);
  });

  it('writes to a Spanish-speaking applicant in Spanish, the time as Spanish writes it', async () => {
    const email = `submitted.es.${target.name}@example.org`;
    const api = await applicant(email, 'es-MX,es;q=0.9');
    expect((await api.put('/api/answer', completeApplication())).status).toBe(200);
    expect((await api.post('/api/submit', {})).status).toBe(200);

    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe(`${partner.short_name} recibió su solicitud`);
    expect(mail.from).toMatch(new RegExp(`^"?Admisiones de ${partner.name}"? <[^>]+>$`));
    expect(mail.text).toMatch(/^Hola, Ada Lovelace:/);
    expect(mail.text).toContain(`La recibimos el ${timeIn(await submittedAt(email), 'es')}.`);
    expect(mail.text).toMatch(/hora (estándar|de verano) central\./);
    expect(mail.text).toContain(`/login y elija «${spanishDocuments.messages.download_pdf}».`);
    for (const contact of [partner.help_email, partner.phone, spanishPartner.admissions_office, partner.name]) expect(mail.text).toContain(contact);
    expect(mail.text).not.toContain(partner.admissions_office);
  });
});
