import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import confirmForm from '../../schemas/auth/confirm.json';
import loginForm from '../../schemas/auth/login.json';
import signupForm from '../../schemas/auth/signup.json';
import frame from '../../schemas/text/frame.json';
import pageMessages from '../../src/shared/generated/page-messages.json';
import { axeViolations } from '../helpers/axe.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { fillAnswers } from '../helpers/form-filler.ts';
import { confirmationCodeOf, startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

let server: TestServer;
let smtp: SmtpReceiver;
let browser: Browser;
const password = 'Harbor-Lantern-5521!';
/** what a missing GPA says: the schema's own message for the GPA */
const GPA_MESSAGE = pageMessages['education-ug'].required['#'].hs_gpa;
const year = new Date().getFullYear();

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

async function logIn(page: Page, username: string) {
  await page.goto(`${server.url}/login`);
  await page.getByRole('heading', { level: 1, name: loginForm.title }).waitFor();
  await page.getByLabel('Email Address').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: loginForm.submit, exact: true }).click();
}

const continueButton = (page: Page) => page.getByRole('button', { name: frame.actions.continue });

describe('the whole application journey in Chromium', () => {
  it('anonymous answers -> sign-up -> confirm -> login -> three pages -> fix what is missing -> submitted', async () => {
    const username = 'ada.journey@example.org';
    const context = await browser.newContext();
    const { page, problems } = await openPage(context);

    // anonymous answers on About You, then Continue: to sign-up, carrying them
    await page.goto(`${server.url}/about`);
    await fillAnswers(page, { first_name: 'Ada', last_name: 'Lovelace', gender: 'Female' });
    await continueButton(page).click();
    await page.waitForURL(`${server.url}/signup`);
    await page.getByRole('heading', { level: 1, name: signupForm.title }).waitFor();
    await page.getByLabel('Email Address').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: signupForm.submit }).click();
    await page.waitForURL(`${server.url}/confirm`);
    await page.getByRole('heading', { level: 1, name: confirmForm.title }).waitFor();
    await page.getByLabel('Confirmation Code', { exact: true }).fill(confirmationCodeOf(await smtp.waitFor(username)));
    await page.getByRole('button', { name: confirmForm.submit }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.getByRole('heading', { level: 1, name: loginForm.title }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: loginForm.submit, exact: true }).click();

    // logged in: the answers typed before signing up are there, and stored with their labels
    await page.waitForURL(`${server.url}/about`);
    await page.getByRole('region', { name: frame.welcome.first_login.title }).waitFor();
    expect(await page.locator('#first_name').inputValue()).toBe('Ada');
    const stored = await server.app.db.selectFrom('answers').innerJoin('applicants', 'applicants.id', 'answers.applicant_id')
      .select(['key', 'value']).where('applicants.email', '=', username).execute();
    expect(Object.fromEntries(stored.map((row) => [row.key, row.value]))).toMatchObject({ first_name: 'Ada', gender: 'F', gender_desc: 'Female' });

    // About You, complete
    await fillAnswers(page, {
      birth_date: `${year - 18}-03-14`, phone_home: '2125551234', country: 'USA', address_line_1: '1 Main Street',
      city: 'Springfield', state: 'IL', zip: '62701', mailing_addr_same_as_perm_addr: 'Yes',
      parent_relationship: 'M', parent_first_name: 'Anne', parent_last_name: 'Lovelace', guardian_graduate: 'No',
      parent_deceased: 'No', parent_education: '6', parent_addr_same_as_stu_perm: 'Yes', parent_2_relationship: 'NA',
      citizenship_type: '1', religious_affiliation: 'NONE', military_status: '6',
    });
    await continueButton(page).click();
    await page.waitForURL(`${server.url}/education-ug`);
    // welcome box goes once the applicant has changed page
    expect(await page.locator('.welcome-box').count()).toBe(0);

    // Your Education, with a mistake: no GPA
    await fillAnswers(page, {
      test_taken_ind: 'No', applied_major: 'BIO', residency_status: 'On campus', home_schooled: 'No',
      hs_name: 'Central High School', grad_month: '05', grad_year: String(year), college_univ_attended: 'No',
      hs_class_name: 'English 12', music_scholar: 'No',
    });
    await continueButton(page).click();
    await page.waitForURL(`${server.url}/final-steps`);

    // Final Step, with another mistake: not certified
    await fillAnswers(page, { counselor_waiver_request: 'I waive my right to review recommendations' });
    await page.getByRole('button', { name: frame.actions.submit }).click();

    // refused: the panel lists the pages and links to the fields
    await page.waitForURL(`${server.url}/about`);
    const panel = page.locator('.missing-info');
    await panel.getByRole('heading', { name: frame.missing_info.title }).waitFor();
    expect(await panel.locator('.missing-pages a').allTextContents()).toEqual(['Your Education', 'Final Step']);
    expect(await panel.getByRole('link', { name: GPA_MESSAGE }).getAttribute('href')).toBe('/education-ug#hs_gpa');
    await screenshot(page, 'journey-missing-information');
    expect(await axeViolations(page, { strict: true })).toEqual([]);

    await panel.getByRole('link', { name: GPA_MESSAGE }).click();
    await page.waitForURL(`${server.url}/education-ug#hs_gpa`);
    await page.waitForFunction(() => document.activeElement?.id === 'hs_gpa');
    expect(await page.locator('[data-field-key="hs_gpa"] .field-error').textContent()).toBe(GPA_MESSAGE); // highlighted on the page
    await fillAnswers(page, { hs_gpa: '3.8', gpa_scale: '4' });
    // the panel drops Your Education once the GPA is checked: the list moves up, so wait for it before clicking
    await page.locator('.missing-info .missing-pages a', { hasText: 'Your Education' }).waitFor({ state: 'detached' });
    await page.locator('.missing-info').getByRole('link', { name: 'Please certify that your application is complete and correct.' }).click();
    await page.waitForURL(`${server.url}/final-steps#legal_agree`);
    await fillAnswers(page, { legal_agree: true });
    await page.getByRole('button', { name: frame.actions.submit }).click();

    // submitted
    await page.waitForURL(`${server.url}/completion`);
    await page.getByText(frame.completion.message).first().waitFor();
    await page.getByRole('region', { name: 'Thanks, Ada!' }).waitFor();
    await screenshot(page, 'journey-completion');
    expect(await axeViolations(page, { strict: true })).toEqual([]);

    // log out and in: still /completion, thanked by name
    await page.getByRole('button', { name: frame.header.account_button }).click();
    await page.getByRole('button', { name: frame.account_popover.log_out }).click();
    await page.waitForURL(`${server.url}/login`);
    await logIn(page, username);
    await page.waitForURL(`${server.url}/completion`);
    await page.getByRole('region', { name: 'Thanks, Ada!' }).waitFor();
    expect(problems.errors).toEqual([]);
    await context.close();
  }, 120_000);
});
