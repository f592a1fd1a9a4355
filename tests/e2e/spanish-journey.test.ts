/**
 * A whole application in Spanish, in Chromium: a first visit whose browser asks for
 * Spanish, the header's language links used by keyboard, sign-up with its e-mailed code,
 * the three pages (the country list in Spanish order), the missing-information panel,
 * submission, its e-mail and the PDF copy. No English is left anywhere the applicant reads
 * or hears: each page's text, title, and the names, descriptions and announcements a
 * screen reader gives (english-leaks.ts), each mail's subject, text and sender, the PDF
 * copy's text, title and file name; each page passes axe. The stored answers are the
 * codes and English labels an English application stores.
 */
import { PDFDocument } from '@cantoo/pdf-lib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import frame from '../../schemas/text/frame.json';
import esConfirm from '../../schemas/i18n/es/auth/confirm.json';
import esLogin from '../../schemas/i18n/es/auth/login.json';
import esSignup from '../../schemas/i18n/es/auth/signup.json';
import esDocuments from '../../schemas/i18n/es/documents.json';
import esFrame from '../../schemas/i18n/es/text/frame.json';
import esPartner from '../../schemas/i18n/es/partner.json';
import partner from '../../schemas/partner.json';
import { ApiSession } from '../../support/api-session.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { confirmationCodeOf, startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '../../support/smtp-receiver.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { axeViolations } from '../helpers/axe.ts';
import { EnglishFinder, englishOnPage, type Leak } from '../helpers/english-leaks.ts';
import { fillAnswers } from '../helpers/form-filler.ts';
import { byName, tabTo } from '../helpers/keyboard.ts';
import { pdfText, withoutWhitespace } from '../helpers/pdf-text.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';
import { printCeilingMs } from '../../support/ceilings.ts';

let server: TestServer;
let smtp: SmtpReceiver;
let browser: Browser;
const password = 'Harbor-Lantern-5521!';
const year = new Date().getFullYear();
const username = 'ada.espanol@example.org';
/** What the applicant types is theirs: an answer's words may be English ("Main Street"). */
const typed = [username, 'Ada', 'Lovelace', 'Anne', '1 Main Street', 'Springfield', 'Central High School', 'English 12'];
const english = new EnglishFinder('es', typed);
const step = (path: string) => esFrame.steps.find((item) => item.path === path)!.label;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  browser = await workerBrowser();
});

afterAll(async () => {
  await closeContexts(browser);
  await server?.close();
  await smtp?.close();
});

/** The page is in Spanish: <html lang>, no English seen or heard, and axe finds nothing. */
async function checkSpanish(page: Page, name: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.lang), name).toBe('es');
  expect(await englishOnPage(page, english), `English on ${name}`).toEqual([]);
  await screenshot(page, `spanish-${name}`);
  expect(await axeViolations(page, { strict: true }), name).toEqual([]);
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
const continueButton = (page: Page) => page.getByRole('button', { name: esFrame.actions.continue });

/** The English in a mail: its subject, its text and the name it comes from. */
function englishInMail(mail: ReceivedMail): Leak[] {
  return [...english.find(mail.subject, 'mail subject'), ...english.find(mail.text, 'mail text'), ...english.find(mail.from, 'mail sender')];
}

async function apiOf(context: BrowserContext): Promise<ApiSession> {
  const api = new ApiSession(server.app);
  for (const cookie of await context.cookies()) api.cookies.set(cookie.name, cookie.value);
  return api;
}

describe('the application in Spanish', () => {
  it('from a first visit in Spanish to the submitted application and its PDF copy, with no English on the way', async () => {
    const context = await browser.newContext({ locale: 'es-ES', extraHTTPHeaders: { 'accept-language': 'es-ES,es;q=0.9,en;q=0.4' } });
    const { page, problems } = await openPage(context);

    // the first visit follows the browser's language
    await page.goto(`${server.url}/about`);
    await heading(page, step('/about'));
    await checkSpanish(page, 'about-first-visit');

    // the countries in Spanish alphabetical order, after the blank choice and the United States the spec puts first
    const countries = await page.locator('#country option').allTextContents();
    expect(countries.slice(1, 5)).toEqual(['Estados Unidos', 'Afganistán', 'Albania', 'Alemania']);
    expect(countries.slice(2)).toEqual([...countries.slice(2)].sort(new Intl.Collator('es').compare));

    // the header's links, by keyboard: to English and back, each a real link marked with its language
    const englishLink = page.getByRole('link', { name: 'English', exact: true });
    expect(await englishLink.getAttribute('hreflang')).toBe('en');
    expect(await page.getByRole('link', { name: 'Español', exact: true }).getAttribute('aria-current')).toBe('true');
    await tabTo(page, byName('English'), { max: 10 });
    await page.keyboard.press('Enter');
    await heading(page, frame.steps[0]!.label);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(page.url()).toBe(`${server.url}/about`);
    await tabTo(page, byName('Español'), { max: 10 });
    await page.keyboard.press('Enter');
    await heading(page, step('/about'));

    // anonymous answers, then sign-up, the code from a Spanish e-mail, and login
    await fillAnswers(page, { first_name: 'Ada', last_name: 'Lovelace', gender: 'Femenino' });
    await continueButton(page).click();
    await page.waitForURL(`${server.url}/signup`);
    await heading(page, esSignup.title);
    await checkSpanish(page, 'signup');
    await page.getByLabel(esSignup.fields[0]!.label).fill(username);
    await page.getByLabel(esSignup.fields[1]!.label, { exact: true }).fill(password);
    await page.getByRole('button', { name: esSignup.submit }).click();
    await page.waitForURL(`${server.url}/confirm`);
    await heading(page, esConfirm.title);
    await checkSpanish(page, 'confirm');
    const mail = await smtp.waitFor(username);
    expect(mail.subject).toMatch(/^Confirme su cuenta de solicitud de /);
    expect(mail.text).toContain('Escríbalo en la página Confirme su cuenta');
    expect(englishInMail(mail)).toEqual([]);
    await page.getByLabel(esConfirm.fields[1]!.label, { exact: true }).fill(confirmationCodeOf(mail));
    await page.getByRole('button', { name: esConfirm.submit }).click();
    await page.waitForURL(`${server.url}/login`);
    await heading(page, esLogin.title);
    await checkSpanish(page, 'login');
    await page.getByLabel(esLogin.fields[1]!.label, { exact: true }).fill(password);
    await page.getByRole('button', { name: esLogin.submit, exact: true }).click();

    // the three pages, with a mistake left on each of the last two
    await page.waitForURL(`${server.url}/about`);
    await page.getByRole('region', { name: esFrame.welcome.first_login.title }).waitFor();
    await checkSpanish(page, 'about-signed-in');
    await fillAnswers(page, {
      birth_date: `${year - 18}-03-14`, phone_home: '2125551234', country: 'USA', address_line_1: '1 Main Street',
      city: 'Springfield', state: 'IL', zip: '62701', mailing_addr_same_as_perm_addr: 'Sí',
      parent_relationship: 'M', parent_first_name: 'Anne', parent_last_name: 'Lovelace', guardian_graduate: 'No',
      parent_deceased: 'No', parent_education: '6', parent_addr_same_as_stu_perm: 'Sí', parent_2_relationship: 'NA',
      citizenship_type: '1', religious_affiliation: 'NONE', military_status: '6',
    });
    await continueButton(page).click();
    await page.waitForURL(`${server.url}/education-ug`);
    await heading(page, step('/education-ug'));
    await checkSpanish(page, 'education');
    await fillAnswers(page, {
      test_taken_ind: 'No', applied_major: 'BIO', residency_status: 'En el campus', home_schooled: 'No',
      hs_name: 'Central High School', grad_month: '05', grad_year: String(year), college_univ_attended: 'No',
      hs_class_name: 'English 12', music_scholar: 'No',
    });
    await continueButton(page).click();
    await page.waitForURL(`${server.url}/final-steps`);
    await heading(page, step('/final-steps'));
    await checkSpanish(page, 'final-steps');
    await fillAnswers(page, { counselor_waiver_request: 'Renuncio a mi derecho a consultar las recomendaciones' });
    await page.getByRole('button', { name: esFrame.actions.submit }).click();

    // refused: the missing-information panel and each page's messages, in Spanish
    await page.waitForURL(`${server.url}/about`);
    const panel = page.locator('.missing-info');
    await panel.getByRole('heading', { name: esFrame.missing_info.title }).waitFor();
    expect(await panel.locator('.missing-pages a').allTextContents()).toEqual([step('/education-ug'), step('/final-steps')]);
    await checkSpanish(page, 'missing-information');
    await panel.getByRole('link', { name: 'Promedio (GPA)' }).click();
    await page.waitForURL(`${server.url}/education-ug#hs_gpa`);
    await page.waitForFunction(() => document.activeElement?.id === 'hs_gpa');
    // a missing answer says the field's own message, in Spanish
    expect(await page.locator('[data-field-key="hs_gpa"] .field-error').textContent()).toBe('Escriba su promedio (GPA) como un número, p. ej., 3.75.');
    await checkSpanish(page, 'education-messages');
    await fillAnswers(page, { hs_gpa: '3.8', gpa_scale: '4' });
    await page.locator('.missing-info .missing-pages a', { hasText: step('/education-ug') }).waitFor({ state: 'detached' });
    await page.locator('.missing-info').getByRole('link', { name: 'Certifique que su solicitud está completa y es correcta.' }).click();
    await page.waitForURL(`${server.url}/final-steps#legal_agree`);
    await fillAnswers(page, { legal_agree: true });
    await page.getByRole('button', { name: esFrame.actions.submit }).click();

    // submitted, thanked in Spanish
    await page.waitForURL(`${server.url}/completion`);
    await page.getByRole('region', { name: '¡Gracias, Ada!' }).waitFor();
    await page.getByText(esFrame.completion.message).first().waitFor();
    await checkSpanish(page, 'completion');

    // and told so by e-mail, in Spanish: who, when in the university's time, where the PDF copy is, whom to ask
    const received = await smtp.waitFor(username);
    expect(received.subject).toBe(`${partner.short_name} recibió su solicitud`);
    expect(received.text).toMatch(/^Hola, Ada Lovelace:/);
    expect(received.text).toMatch(/La recibimos el \d{1,2} de [a-z]+ de \d{4} a las \d{1,2}:\d{2} hora (estándar|de verano) central\./);
    expect(received.text).toContain(`/login y elija «${esDocuments.messages.download_pdf}».`);
    for (const contact of [partner.help_email, partner.phone, esPartner.admissions_office]) expect(received.text).toContain(contact);
    expect(received.from).toMatch(/^"?Admisiones de /);
    expect(englishInMail(received)).toEqual([]);

    // the office's data is the same as an English application's: codes and English labels
    const stored = await server.app.db.selectFrom('answers').innerJoin('applicants', 'applicants.id', 'answers.applicant_id')
      .select(['key', 'value']).where('applicants.email', '=', username).execute();
    expect(Object.fromEntries(stored.map((row) => [row.key, row.value]))).toMatchObject({
      gender: 'F', gender_desc: 'Female', residency_status: 'ON', residency_status_desc: 'On campus', counselor_waiver_request_desc: 'I waive my right to review recommendations',
    });
    expect((await server.app.db.selectFrom('applicants').select('language').where('email', '=', username).executeTakeFirstOrThrow()).language).toBe('es');

    // the PDF copy, asked for from the page, is in Spanish
    const api = await apiOf(context);
    await page.getByRole('button', { name: esDocuments.messages.download_pdf }).click();
    await expect.poll(async () => (await api.get<{ status: string }>('/api/pdf')).body.status, { timeout: printCeilingMs(server.config) }).toBe('COMPLETED');
    const pdf = await server.app.inject({ method: 'GET', url: '/api/pdf/file', headers: { cookie: [...api.cookies].map(([name, value]) => `${name}=${value}`).join('; '), 'sec-fetch-site': 'same-origin' } });
    expect(pdf.statusCode).toBe(200);
    const printed = pdfText(pdf.rawPayload);
    const text = withoutWhitespace(printed);
    for (const shown of [step('/about'), 'Femenino', 'Informaciónpersonal', 'Enelcampus']) expect(text).toContain(withoutWhitespace(shown));
    expect(text).not.toContain('PersonalInformation');
    // dates day first, as Spanish writes them: the date of birth typed as 03/14
    expect(text).toContain(`14/03/${year - 18}`);
    // its title and file name in Spanish, and not a word of English in it
    const title = (await PDFDocument.load(pdf.rawPayload, { updateMetadata: false })).getTitle() ?? '';
    expect(title).toBe(`Solicitud a ${partner.name}`);
    const fileName = /filename\*=UTF-8''([^;]+)/.exec(String(pdf.headers['content-disposition']))?.[1];
    expect(decodeURIComponent(fileName ?? '')).toBe(`Solicitud ${partner.short_name}.pdf`);
    expect([...english.find(printed, 'PDF text'), ...english.find(title, 'PDF title'), ...english.find(decodeURIComponent(fileName ?? ''), 'PDF file name')]).toEqual([]);
    expect(problems.errors).toEqual([]);
    await context.close();
  }, 300_000);
});
