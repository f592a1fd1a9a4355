/**
 * Nothing an applicant or the office enters is silently changed or lost, tried in Chromium
 * as a person would: a parent's phone abroad, a US phone given a number abroad, the mailing
 * address's effective date out of its window, a staff link that has ended and its step links,
 * and the export an office opens in a spreadsheet. One server for the file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import partner from '../../schemas/partner.json';
import errors from '../../schemas/text/errors.json';
import { exportApplications } from '../../src/server/export/export-applications.ts';
import { signServiceToken } from '../../src/server/pdf/service-token.ts';
import { localDate } from '../../src/shared/dates/local-date.ts';
import { form } from '../../src/shared/form/form-model-data.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { axeViolations } from '../helpers/axe.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { makePdf } from '../../support/document-fixtures.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import { conversionResult } from '../../support/uploads.ts';

const env = useServerAndBrowser();
let applicants = 0;
const folder = mkdtempSync(join(tmpdir(), 'entries-kept-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const field = (page: Page, key: string) => page.locator(`[data-field-key="${key}"]`);
const errorOf = (page: Page, key: string) => field(page, key).locator('.field-error');
const answersOf = async (api: ApiSession) => (await api.get<{ answer: Record<string, string | boolean> }>('/api/profile')).body.answer;

/** Tab out of a date: Chromium's Tab first walks the input's own parts (the year, its calendar button). */
async function leaveDate(page: Page, id: string): Promise<void> {
  for (let step = 0; step < 4 && (await page.evaluate(() => document.activeElement?.id)) === id; step++) await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.id)).not.toBe(id);
}

/** A logged-in applicant who has started (no submit yet: no errors shown but those of a field left), on `path`. */
async function startedApplicant(path: string, answers: Record<string, string | boolean>, acceptDownloads = false) {
  const email = `kept-${++applicants}@example.org`;
  const api = await createConfirmedApplicant(env.server.app, email);
  expect((await api.put('/api/answer', answers)).status).toBe(200);
  await api.post('/api/web-status', { web_status: 'started' });
  const context = await env.browser.newContext({ acceptDownloads });
  await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: env.server.url })));
  const { page, problems } = await openPage(context);
  await page.goto(`${env.server.url}${path}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return { api, email, page, problems, close: () => context.close() };
}

/** Waits until what the server holds for `key` is `expected` (a save follows a field's change). */
async function savedAs(api: ApiSession, key: string, expected: string | undefined): Promise<void> {
  await expect.poll(async () => (await answersOf(api))[key] || undefined, { timeout: 30_000 }).toBe(expected);
}

describe('phones', () => {
  it('keeps a parent\'s number abroad in E.164; a US phone given one keeps what was typed and says where it goes', async () => {
    const { api, page, problems, close } = await startedApplicant('/about', { ...completeApplication(), parent_phone: '' });
    expect(await field(page, 'parent_phone').locator('.field-help').textContent()).toContain('+');

    const parentPhone = page.locator('#parent_phone');
    await parentPhone.click();
    await page.keyboard.type('+234 803 123 4567');
    expect(await parentPhone.inputValue()).toBe('+234 803 123 4567'); // never cut at ten digits while typed
    await page.keyboard.press('Tab');
    await expect.poll(() => parentPhone.inputValue()).toBe('+2348031234567');
    expect(await errorOf(page, 'parent_phone').count()).toBe(0);
    await savedAs(api, 'parent_phone', '+2348031234567');

    const home = page.locator('#phone_home');
    await home.fill('');
    await home.click();
    await page.keyboard.type('+44 20 7946 0958');
    expect(await home.inputValue()).toBe('+44 20 7946 0958');
    expect(await errorOf(page, 'phone_home').count()).toBe(0); // the message waits until the field is left
    await page.keyboard.press('Tab');
    await errorOf(page, 'phone_home').waitFor();
    expect(await errorOf(page, 'phone_home').textContent()).toContain('a number abroad goes in International Phone');
    expect(await home.inputValue()).toBe('+44 20 7946 0958');
    expect(await home.getAttribute('aria-invalid')).toBe('true');
    await savedAs(api, 'phone_home', '+442079460958'); // what was typed, not a wrong US number
    await home.scrollIntoViewIfNeeded();
    await screenshot(page, 'phone-home-number-abroad', { fullPage: false });

    // more digits than a US number has: none dropped
    await home.fill('');
    await home.click();
    await page.keyboard.type('212555123456');
    expect((await home.inputValue()).replace(/\D/g, '')).toBe('212555123456');
    await page.keyboard.press('Tab');
    await errorOf(page, 'phone_home').waitFor();
    await savedAs(api, 'phone_home', '212555123456');

    // a US number: formatted as typed, saved as its 10 digits, no message
    await home.fill('');
    await home.click();
    await page.keyboard.type('2125551234');
    expect(await home.inputValue()).toBe('(212) 555-1234');
    await page.keyboard.press('Tab');
    await errorOf(page, 'phone_home').waitFor({ state: 'detached' });
    await savedAs(api, 'phone_home', '2125551234');

    const international = page.locator('#phone_international');
    expect(await international.count()).toBe(0); // shown for an address abroad only: its hint is checked on the first page below
    expect(await axeViolations(page)).toEqual([]);
    expect(problems.errors).toEqual([]);
    await close();
  });

  it('tells an applicant abroad what form the international phone takes', async () => {
    const { page, close } = await startedApplicant('/about', { ...completeApplication(), country: 'GBR', state: '', zip: '', phone_home: '' });
    const help = field(page, 'phone_international').locator('.field-help');
    expect(await help.textContent()).toMatch(/\+ and the country code/);
    expect(await page.locator('#phone_international').getAttribute('aria-describedby')).toContain('phone_international-help');
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });
});

describe('the mailing address\'s effective date', () => {
  it('is checked against its window when the field is left: a date outside is not stored, and clears one saved before', async () => {
    const year = Number(localDate(new Date(), partner.time_zone).slice(0, 4));
    const mailing = {
      mailing_addr_same_as_perm_addr: 'N', mailing_country: 'USA', mailing_address_line_1: '5 Elm Street', mailing_city: 'Madison', mailing_state: 'WI', mailing_zip: '53703',
    };
    const { api, page, problems, close } = await startedApplicant('/about', { ...completeApplication(), ...mailing, mailing_addr_effective_date: `${year}-08-20` });
    const input = page.locator('#mailing_addr_effective_date');
    await input.waitFor();

    await input.fill(`${year + 5}-08-20`);
    await input.focus();
    await leaveDate(page, 'mailing_addr_effective_date');
    await errorOf(page, 'mailing_addr_effective_date').waitFor();
    expect(await errorOf(page, 'mailing_addr_effective_date').textContent()).toContain(`The maximum supported year is ${year + 3}`);
    expect(await input.inputValue()).toBe(`${year + 5}-08-20`); // shown with the reason, not stored
    await savedAs(api, 'mailing_addr_effective_date', undefined); // the date saved before is cleared

    await input.fill(`${year - 3}-08-20`);
    await input.focus();
    await leaveDate(page, 'mailing_addr_effective_date');
    await expect.poll(() => errorOf(page, 'mailing_addr_effective_date').textContent()).toContain(`The minimum supported year is ${year - 2}`);
    await savedAs(api, 'mailing_addr_effective_date', undefined);

    await input.fill(`${year + 1}-01-15`);
    await input.focus();
    await leaveDate(page, 'mailing_addr_effective_date');
    await errorOf(page, 'mailing_addr_effective_date').waitFor({ state: 'detached' });
    await savedAs(api, 'mailing_addr_effective_date', `${year + 1}-01-15`);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems.errors).toEqual([]);
    await close();
  });
});

describe('a staff link', () => {
  async function applicantId(email: string): Promise<string> {
    return (await env.server.app.db.selectFrom('applicants').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  }

  it('that has expired or been withdrawn says so and whom to ask, on every page, instead of the crash screen', async () => {
    const email = `kept-${++applicants}@example.org`;
    const api = await createConfirmedApplicant(env.server.app, email);
    await api.put('/api/answer', { first_name: 'Staffed' });
    const link = (await env.server.app.staffLinks.make(email, 'registrar', 60, env.server.url))!;
    expect((await env.server.app.staffLinks.revoke(link.id, 'registrar')).status).toBe('revoked');
    const expired = signServiceToken(env.server.app.serviceSecret, await applicantId(email), 60_000, Date.now() - 10 * 60_000);
    const urls = [
      link.url, link.url.replace('/about?', '/final-steps?'),
      `${env.server.url}/about?service_token=${encodeURIComponent(expired)}`, `${env.server.url}/final-steps?service_token=${encodeURIComponent(expired)}`,
    ];
    const context = await env.browser.newContext();
    // the document's title as it stood when the heading was drawn: both arrive in one commit
    await context.addInitScript((heading) => {
      new MutationObserver((_, observer) => {
        if ([...document.querySelectorAll('h1')].some((h1) => h1.textContent === heading)) {
          (window as unknown as { titleWithHeading: string }).titleWithHeading = document.title;
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    }, errors.staff_link_ended.title);
    const { page, problems } = await openPage(context);
    for (const url of urls) {
      await page.goto(url);
      await page.getByRole('heading', { level: 1, name: errors.staff_link_ended.title }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { titleWithHeading: string }).titleWithHeading)).toContain(errors.staff_link_ended.title);
      const body = await page.locator('main').textContent();
      expect(body).toContain(partner.admissions_office);
      expect(body).toContain(partner.help_email);
      expect(body).not.toContain(errors.root_error.title);
      expect(new URL(page.url()).pathname).not.toBe('/login'); // staff have no log-in here
      expect(await page.title()).toContain(errors.staff_link_ended.title);
    }
    await screenshot(page, 'staff-link-ended');
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('that works moves between the applicant\'s three pages by their step links', async () => {
    const email = `kept-${++applicants}@example.org`;
    const api = await createConfirmedApplicant(env.server.app, email);
    await api.put('/api/answer', { first_name: 'Staffed', hs_name: 'Central High School' });
    const link = (await env.server.app.staffLinks.make(email, 'registrar', 60, env.server.url))!;
    const token = new URL(link.url).searchParams.get('service_token')!;
    const context = await env.browser.newContext();
    const { page, problems } = await openPage(context);
    await page.goto(link.url);
    await page.locator('.page-form-service').waitFor();
    const steps = page.getByRole('navigation', { name: /steps/i }).getByRole('link');
    expect(await steps.count()).toBe(form.pageOrder.length);
    for (const id of ['education-ug', 'final-steps', 'about'] as const) {
      await steps.filter({ hasText: form.pages[id].title }).click();
      await page.getByRole('heading', { level: 1, name: form.pages[id].title }).waitFor();
      const url = new URL(page.url());
      expect(url.pathname).toBe(`/${id}`);
      expect(url.searchParams.get('service_token')).toBe(token);
      await page.locator('.page-form-service').waitFor();
    }
    expect(await page.locator('[data-field-key="first_name"]').textContent()).toContain('Staffed');
    // the printed copy (the same view) leaves the links out
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.step-nav').isVisible()).toBe(false);
    await page.emulateMedia({ media: 'screen' });
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});

describe('the export an office opens in a spreadsheet', () => {
  it('has a byte-order mark, a labels file, each document\'s file name, size and copy, false for an unticked box, and a manifest per format', async () => {
    const fileName = 'Lettre – Zoë Ñúñez.pdf'; // within the 32 characters a file name may have
    const { api, page, close } = await startedApplicant('/final-steps', { ...completeApplication(), first_name: 'Zoë', last_name: 'Ñúñez' });
    const path = join(folder, fileName);
    writeFileSync(path, await makePdf());
    await page.locator('#supporting_document').setInputFiles(path);
    await field(page, 'supporting_document').locator('.file-name').getByText(fileName).waitFor();
    expect((await conversionResult(api, 'supporting_document')).status).toBe('COMPLETED');
    expect((await api.post('/api/submit')).status).toBe(200);
    await close();

    const out = join(folder, 'export');
    const csvRun = await exportApplications(env.server.app.db, { all: false, format: 'csv', outDir: out, documents: env.server.app.storage });
    const jsonRun = await exportApplications(env.server.app.db, { all: false, format: 'jsonl', outDir: out, documents: env.server.app.storage });

    const bytes = readFileSync(join(out, csvRun.manifest.file));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parse(bytes, { bom: true, columns: true }) as Record<string, string>[];
    const row = rows.find((entry) => entry.first_name === 'Zoë')!;
    expect(row.last_name).toBe('Ñúñez');
    expect(row.legal_agree).toBe('true');
    expect(row.optin_sms_ind).toBe('false'); // never ticked
    expect(row.race_asian).toBe('false');
    expect(row.supporting_document).toBe('ANSWERED');
    expect(row.supporting_document_file_name).toBe(fileName);
    expect(Number(row.supporting_document_file_size)).toBeGreaterThan(0);
    expect(readFileSync(join(out, row.supporting_document_file_path!)).subarray(0, 5).toString()).toBe('%PDF-');
    // every document question has its file columns, filled for every file uploaded
    for (const [key, meta] of Object.entries(form.fields).filter(([, meta]) => meta.type === 'document')) {
      expect(Object.keys(row), meta.key).toContain(`${key}_file_name`);
    }

    const labels = parse(readFileSync(join(out, csvRun.manifest.labels)), { bom: true, columns: true }) as Record<string, string>[];
    const header = Object.keys(rows[0]!);
    expect(labels.map((entry) => entry.column)).toEqual(header);
    const labelOf = (column: string) => labels.find((entry) => entry.column === column)!;
    expect(labelOf('first_name')).toMatchObject({ label: form.fields.first_name!.title, page: form.pages.about.title });
    expect(labelOf('parent_2_first_name').section).toBe('Parent/Guardian 2');
    expect(labelOf('supporting_document_file_name').label).toContain(form.fields.supporting_document!.title);
    expect(labels.every((entry) => entry.label)).toBe(true);

    // the two runs into one folder keep their own manifests
    expect(csvRun.manifest.file).not.toBe(jsonRun.manifest.file);
    const manifestOf = (file: string) => JSON.parse(readFileSync(join(out, `${file}.manifest.json`), 'utf8')) as { file: string; format: string };
    expect(manifestOf(csvRun.manifest.file)).toMatchObject({ file: csvRun.manifest.file, format: 'csv' });
    expect(manifestOf(jsonRun.manifest.file)).toMatchObject({ file: jsonRun.manifest.file, format: 'jsonl' });
    const line = readFileSync(join(out, jsonRun.manifest.file), 'utf8').trim().split('\n').map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((entry) => entry.first_name === 'Zoë')!;
    expect(line).toMatchObject({ optin_sms_ind: false, supporting_document_file_name: fileName });
  });
});
