import type { Browser, Page } from 'playwright-core';
import frame from '../../schemas/text/frame.json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { axeViolations } from '../helpers/axe.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

let server: TestServer;
let browser: Browser;
let counter = 0;

beforeAll(async () => {
  server = await startTestServer();
  browser = await workerBrowser();
});

afterAll(async () => {
  await closeContexts(browser);
  await server?.close();
});

const field = (page: Page, key: string) => page.locator(`[data-field-key="${key}"]`);
/** Blueprint draws its own radio: the applicant clicks the label. */
const radio = (page: Page, key: string, label: string) => ({
  check: () => field(page, key).locator('label.bp6-control', { hasText: new RegExp(`^${label}$`) }).click(),
});

async function anonymousPage(path: string): Promise<Page> {
  const context = await browser.newContext();
  const { page } = await openPage(context);
  await page.goto(`${server.url}${path}`);
  await page.locator('[data-page]').waitFor();
  return page;
}

async function loggedInPage(path: string, answers?: Record<string, string>) {
  const api = await createConfirmedApplicant(server.app, `rules${++counter}@example.org`);
  if (answers) await api.put('/api/answer', answers);
  const context = await browser.newContext();
  await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
  const { page, problems } = await openPage(context);
  await page.goto(`${server.url}${path}`);
  await page.locator('[data-page]').waitFor();
  return { page, api, problems };
}

/** A change that hides entered answers is asked first: the test goes on with "Change and remove". */
async function confirmRemoval(page: Page): Promise<void> {
  const dialog = page.getByRole('alertdialog', { name: frame.hidden_answers.title });
  await dialog.getByRole('button', { name: frame.hidden_answers.confirm }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('conditional rules in Chromium', () => {
  it('hides a section when its condition holds and clears its answers', async () => {
    const page = await anonymousPage('/about');
    expect(await field(page, 'mailing_city').count()).toBe(0);
    await radio(page, 'mailing_addr_same_as_perm_addr', 'No').check();
    await page.locator('#mailing_city').fill('Madison');
    await page.locator('#mailing_addr_effective_date').waitFor();
    await radio(page, 'mailing_addr_same_as_perm_addr', 'Yes').check();
    await confirmRemoval(page);
    await field(page, 'mailing_city').waitFor({ state: 'detached' });
    await radio(page, 'mailing_addr_same_as_perm_addr', 'No').check();
    expect(await page.locator('#mailing_city').inputValue()).toBe(''); // cleared, not just hidden
    await page.context().close();
  });

  it('filters states by country, hides them abroad and asks an international phone', async () => {
    const page = await anonymousPage('/about');
    expect(await field(page, 'phone_international').count()).toBe(0);
    await page.locator('#country').selectOption('USA');
    const states = () => page.locator('#state option').allTextContents();
    expect(await states()).toContain('Wisconsin');
    expect(await states()).not.toContain('Ontario');
    expect((await states())[0]).toBe('--');
    await page.locator('#state').selectOption('WI');
    await page.locator('#country').selectOption('CAN');
    expect(await page.locator('#state').inputValue()).toBe(''); // Wisconsin is not in Canada
    expect(await states()).toContain('Ontario');
    await page.locator('#country').selectOption('DEU');
    await field(page, 'state').waitFor({ state: 'detached' });
    await page.locator('#phone_international').waitFor();
    const countries = await page.locator('#country option').allTextContents();
    expect(countries.slice(0, 2)).toEqual(['--', 'United States']);
    await page.context().close();
  });

  it('asks the visa and citizenship questions only when they apply', async () => {
    const page = await anonymousPage('/about');
    expect(await field(page, 'visa_radio').count()).toBe(0);
    await page.locator('#citizenship_type').selectOption('3');
    await radio(page, 'visa_radio', 'Yes').check();
    await page.locator('#citizenship').waitFor();
    expect(await page.locator('#citizenship option').allTextContents()).not.toContain('United States');
    await page.locator('#citizenship').selectOption('DEU');
    await page.locator('#citizenship_type').selectOption('1');
    await confirmRemoval(page);
    await field(page, 'visa_radio').waitFor({ state: 'detached' });
    await field(page, 'citizenship').waitFor({ state: 'detached' });

    // an anonymous visitor with answers who moves on is sent to sign-up, answers in hand
    await page.getByRole('link', { name: /Your Education/ }).click();
    await page.waitForURL(`${server.url}/signup`);
    await page.context().close();
  });

  it('narrows program and major on the next page when the applicant needs an I-20', async () => {
    const { page } = await loggedInPage('/education-ug', { citizenship_type: '3', visa_radio: 'Y' });
    await page.locator('#applied_major').waitFor();
    const majors = await page.locator('#applied_major option').allTextContents();
    expect(majors).not.toContain('RN-to-BSN (online)');
    expect(majors).toContain('Biology');
    expect(await page.locator('#program_type option').allTextContents()).toEqual(['--', 'First-year', 'Transfer']);
    await page.context().close();
  });

  it('walks the test-score questions', async () => {
    const page = await anonymousPage('/education-ug');
    expect(await field(page, 'test_optional').count()).toBe(0);
    await radio(page, 'test_taken_ind', 'Yes').check();
    await radio(page, 'test_optional', 'Yes').check();
    await radio(page, 'sat_taken', 'Taken').check();
    expect(await page.locator('#sat_score_math').getAttribute('inputmode')).toBe('numeric'); // a phone shows digits
    expect(await page.locator('#hs_gpa').getAttribute('inputmode')).toBe('decimal');
    await page.locator('#sat_score_math').fill('650');
    await radio(page, 'sat_taken', 'Not yet').check();
    await confirmRemoval(page);
    expect(await field(page, 'sat_score_math').count()).toBe(0);
    await page.locator('#sat_plan_month').waitFor();
    await field(page, 'sat_taken_unsure').locator('label').click();
    await field(page, 'sat_plan_month').waitFor({ state: 'detached' });
    await radio(page, 'sat_taken', 'Taken').check();
    await confirmRemoval(page); // the ticked "Not sure" goes
    expect(await page.locator('#sat_score_math').inputValue()).toBe(''); // cleared when hidden
    await page.context().close();
  });

  it('formats a phone number and keeps an invalid date out of the answers', async () => {
    const page = await anonymousPage('/about');
    await page.locator('#phone_home').pressSequentially('2625550142');
    expect(await page.locator('#phone_home').inputValue()).toBe('(262) 555-0142');
    const young = `${new Date().getFullYear() - 5}-06-01`;
    await page.locator('#birth_date').fill(young);
    await page.locator('#birth_date').blur();
    await field(page, 'birth_date').getByText('You must be 13 years or older to apply.').waitFor();
    expect(await page.locator('#birth_date').getAttribute('aria-invalid')).toBe('true');
    await page.context().close();
  });

  it('reaches a field by /{page}#{fieldKey}', async () => {
    const page = await anonymousPage('/about#city');
    await page.waitForFunction(() => document.activeElement?.id === 'city');
    await page.context().close();
  });
});

describe('repeaters and tabs in Chromium', () => {
  it('shows no add-another button and only the default tab to an anonymous visitor', async () => {
    const page = await anonymousPage('/education-ug');
    await page.locator('#hs_class_name').waitFor();
    expect(await page.getByRole('button', { name: 'Add another class' }).count()).toBe(0);
    expect(await page.getByRole('tab').count()).toBe(0);
    expect(await page.locator('#hs_transcript').count()).toBe(0);
    await page.context().close();
  });

  it('adds instances up to the maximum and keeps the count on the server', async () => {
    const { page, api, problems } = await loggedInPage('/education-ug');
    const add = page.getByRole('button', { name: 'Add another class' });
    for (let n = 2; n <= 8; n++) {
      await add.click();
      await page.locator(`#hs_${n}_class_name`).waitFor();
    }
    expect(await add.count()).toBe(0); // at the maximum of 8
    await page.locator('#hs_8_class_name').fill('Physics');
    const saved = await api.get('/api/add-another');
    expect(saved.body).toEqual({ add_class: 8 });
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    expect(problems.errors).toEqual([]);
    await page.context().close();
  });

  it('switches tabs, saves the choice and clears the answers of the tab left', async () => {
    const { page, api } = await loggedInPage('/education-ug');
    await page.locator('#hs_class_name').fill('English 12');
    await page.getByRole('tab', { name: 'Upload my transcript' }).click();
    // the switch removes what was entered: asked first, then confirmed
    const ask = page.getByRole('alertdialog', { name: frame.tab_switch.title.replace('{tab}', 'Upload my transcript') });
    await ask.getByRole('button', { name: frame.tab_switch.confirm }).click();
    await page.locator('#hs_transcript').waitFor();
    expect(await page.locator('#hs_class_name').count()).toBe(0);
    expect((await api.get('/api/tabs')).body).toEqual({ hs_classes_tabs: 'transcript' });
    await screenshot(page, 'tabs-transcript');
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await page.getByRole('tab', { name: 'Enter my classes' }).click();
    expect(await page.locator('#hs_class_name').inputValue()).toBe('');
    await page.context().close();
  });

  it('shows the file question as account-only to an anonymous visitor', async () => {
    const page = await anonymousPage('/final-steps');
    await page.getByText('This question can be finished once you have created an account.').waitFor();
    await page.context().close();
  });
});
