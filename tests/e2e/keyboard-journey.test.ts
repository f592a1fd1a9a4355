import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import signupForm from '../../schemas/auth/signup.json';
import partner from '../../schemas/partner.json';
import a11y from '../../schemas/text/accessibility.json';
import frame from '../../schemas/text/frame.json';
import pageMessages from '../../src/shared/generated/page-messages.json';
import { axeViolations } from '../helpers/axe.ts';
import { openPage } from '../../support/browser.ts';
import { makePdf } from '../../support/document-fixtures.ts';
import {
  activeDescription, byId, byName, chooseOption, chooseRadio, focusStop, orderProblems, tabTo, typeInto, type FocusStop,
} from '../helpers/keyboard.ts';
import { confirmationCodeOf, startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';
import { conversionCeilingMs, testConversionCeilingMs } from '../../support/ceilings.ts';

/**
 * The whole journey with the keyboard alone (page.keyboard: Tab, Shift+Tab, Enter, Space,
 * the arrow keys and typing; no click, no fill). The confirmation code is read from a real
 * SMTP receiver. The one thing a keyboard cannot drive is the operating system's file
 * picker: the file is handed to the file input the keyboard has focused.
 */
let server: TestServer;
let smtp: SmtpReceiver;
let browser: Browser;
const password = 'Quill-Harbor-4410!';
/** what a missing GPA says: the schema's own message for the GPA */
const GPA_MESSAGE = pageMessages['education-ug'].required['#'].hs_gpa;
const year = new Date().getFullYear();
const folder = mkdtempSync(join(tmpdir(), 'keyboard-journey-'));

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

/** After a route change the title names the page and the focus is on its main heading (or `id`). */
async function arrivedAt(page: Page, path: string, heading: string, focusedId?: string): Promise<void> {
  await page.waitForURL(`${server.url}${path}`);
  await page.waitForFunction(({ heading: text, id }) => {
    const active = document.activeElement;
    if (id) return active?.id === id;
    return active?.tagName === 'H1' && active.textContent?.trim() === text;
  }, { heading, id: focusedId });
  expect(await page.title()).toBe(`${heading} | ${partner.name}`);
}

async function noViolations(page: Page): Promise<void> {
  expect(await axeViolations(page, { strict: true })).toEqual([]);
}

describe('the whole journey with the keyboard alone', () => {
  it('anonymous answers -> sign up -> confirm -> log in -> three pages with an upload and a fixed error -> submitted', async () => {
    const username = 'keys.only@example.org';
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await openPage(context);
    const path: FocusStop[] = [];

    // ---- anonymous, on About You: the skip link comes first and leads into the page
    await page.goto(`${server.url}/about`);
    await page.getByRole('heading', { level: 1, name: 'About You' }).waitFor();
    await page.keyboard.press('Tab');
    const skip = await focusStop(page);
    expect(skip?.name).toBe(frame.skip_link);
    expect(skip?.ringVisible).toBe(true);
    await page.keyboard.press('Enter');
    expect(await activeDescription(page)).toBe('#page-title'); // the skip link lands on the page's heading

    await typeInto(page, 'first_name', 'Ada', { path });
    await typeInto(page, 'last_name', 'Lovelace', { path });
    await tabTo(page, byId('gender'), { path });
    await chooseRadio(page, 'Female');
    // the rest of the page is passed on the way to Continue: in reading order, each with a ring
    await tabTo(page, byName(frame.actions.continue), { path, max: 150 });
    expect(orderProblems(path)).toEqual([]);
    expect(path.filter((stop) => stop.obscured).map((stop) => stop.id || stop.name)).toEqual([]);
    await page.keyboard.press('Enter');

    // ---- sign up: the answers travel along
    await arrivedAt(page, '/signup', signupForm.title);
    await typeInto(page, 'field-username', username);
    await tabTo(page, byId('field-password'));
    await page.keyboard.type(password);
    expect(await page.locator('.checklist-met').count()).toBe(6);
    await noViolations(page);
    await tabTo(page, byName(signupForm.submit));
    await page.keyboard.press('Enter');

    // ---- confirm with the code from the mail; Enter in the field sends the form
    await arrivedAt(page, '/confirm', 'Confirm Your Account');
    // the success toast is announced (a status region) without taking the focus
    const toastText = await page.locator('.app-toaster .app-toast-body > span').first().textContent();
    await expect.poll(() => page.locator('[role="status"]:not(.app-toaster *)').allTextContents()).toContainEqual(expect.stringContaining(toastText!));
    expect(await activeDescription(page)).toBe('h1 "Confirm Your Account"');
    const code = confirmationCodeOf(await smtp.waitFor(username));
    await tabTo(page, byId('field-code'));
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).inputMode)).toBe('numeric');
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');

    // ---- log in
    await arrivedAt(page, '/login', 'Log In');
    await tabTo(page, byId('field-password'));
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');

    // ---- About You, logged in: the answers typed before signing up are there
    await arrivedAt(page, '/about', 'About You');
    expect(await page.locator('#first_name').inputValue()).toBe('Ada');
    await noViolations(page);
    await tabTo(page, byId('birth_date'));
    await page.keyboard.type(`0314${year - 18}`); // month, day, year: the date's parts advance by themselves
    await tabTo(page, byId('country'));
    await chooseOption(page, 'USA');
    await typeInto(page, 'address_line_1', '1 Main Street');
    await typeInto(page, 'city', 'Springfield');
    await tabTo(page, byId('state'));
    await chooseOption(page, 'IL');
    await typeInto(page, 'zip', '62701');
    await tabTo(page, byId('mailing_addr_same_as_perm_addr'));
    await chooseRadio(page, 'Yes');
    // the phones follow the addresses, as the spec lists them
    await typeInto(page, 'phone_home', '2125551234');
    expect(await page.locator('#phone_home').inputValue()).toBe('(212) 555-1234');
    await tabTo(page, byId('parent_relationship'));
    await chooseOption(page, 'M');
    await typeInto(page, 'parent_first_name', 'Anne');
    await typeInto(page, 'parent_last_name', 'Lovelace');
    await tabTo(page, byId('parent_education'));
    await chooseOption(page, '6');
    await tabTo(page, byId('guardian_graduate'));
    await chooseRadio(page, 'No');
    await tabTo(page, byId('parent_deceased'));
    await chooseRadio(page, 'No');
    await tabTo(page, byId('parent_addr_same_as_stu_perm'));
    await chooseRadio(page, 'Yes');
    await tabTo(page, byId('parent_2_relationship'));
    await chooseOption(page, 'NA');
    await tabTo(page, byId('citizenship_type'));
    await chooseOption(page, '1');
    await tabTo(page, byId('religious_affiliation'));
    await chooseOption(page, 'NONE');
    await tabTo(page, byId('military_status'));
    await chooseOption(page, '6');
    await tabTo(page, byName(frame.actions.continue));
    await page.keyboard.press('Enter');

    // ---- Your Education, leaving out the GPA (the error fixed later)
    await arrivedAt(page, '/education-ug', 'Your Education');
    await tabTo(page, byId('test_taken_ind'));
    await chooseRadio(page, 'No');
    await tabTo(page, byId('applied_major'));
    await chooseOption(page, 'BIO');
    await tabTo(page, byId('residency_status'));
    await chooseRadio(page, 'On campus');
    await tabTo(page, byId('home_schooled'));
    await chooseRadio(page, 'No');
    // the school search is a combobox (loaded with its block): type, Down to 'Use: "..."', Enter
    await page.locator('#hs_name[role="combobox"]').waitFor();
    await tabTo(page, byId('hs_name'));
    await page.keyboard.type('Central High School');
    await page.locator('#hs_name-suggestions [role="option"]').last().waitFor();
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('#hs_name').getAttribute('aria-activedescendant')).toBeTruthy();
    await page.keyboard.press('Enter');
    await page.locator('#hs_name-lookup-message').waitFor();
    await tabTo(page, byId('grad_month'));
    await chooseOption(page, '05');
    await tabTo(page, byId('grad_year'));
    await chooseOption(page, String(year));
    await tabTo(page, byId('college_univ_attended'));
    await chooseRadio(page, 'No');
    // the tab list: the chosen tab is one stop; the class is typed in its panel
    const classesTab = await tabTo(page, (stop) => stop.role === 'tab');
    expect(classesTab.name).toBe('Enter my classes');
    await typeInto(page, 'hs_class_name', 'English 12');
    await tabTo(page, byId('music_scholar'));
    await chooseRadio(page, 'No');
    await tabTo(page, byName(frame.actions.continue));
    await page.keyboard.press('Enter');

    // ---- Final Step, with a document chosen at the focused file input
    await arrivedAt(page, '/final-steps', 'Final Step');
    await tabTo(page, byId('counselor_waiver_request'));
    await chooseRadio(page, 'I waive my right to review recommendations');
    await page.locator('#supporting_document').waitFor(); // the uploader loads with the page, for a logged-in applicant
    await tabTo(page, byId('supporting_document'));
    const letter = join(folder, 'letter.pdf');
    writeFileSync(letter, await makePdf(['A letter of recommendation']));
    const focusedInput = await page.evaluateHandle(() => document.activeElement as HTMLInputElement);
    await focusedInput.asElement()!.setInputFiles(letter);
    const question = page.locator('[data-field-key="supporting_document"]');
    await question.locator('[data-document-phase="done"]').waitFor({ timeout: conversionCeilingMs(server.config) });
    // announced, and the focus stayed in the question when the chooser gave way to the file
    await expect.poll(() => question.locator('[data-upload-announcement]').textContent())
      .toBe(a11y.upload.done.replace('{file}', 'letter.pdf').replace('{size}', await question.locator('.file-size').textContent() ?? ''));
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[data-field-key="supporting_document"]')))).toBe(true);
    await tabTo(page, byId('legal_agree'));
    await page.keyboard.press('Space');
    expect(await page.locator('#legal_agree').isChecked()).toBe(true);
    await tabTo(page, byName(frame.actions.submit));
    await page.keyboard.press('Enter');

    // ---- refused: the focus goes to the missing-information panel on About You
    await arrivedAt(page, '/about', 'About You', 'missing-info-title');
    await noViolations(page);
    // its link leads to the field, which takes the focus
    await tabTo(page, byName(GPA_MESSAGE));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/education-ug#hs_gpa`);
    await page.waitForFunction(() => document.activeElement?.id === 'hs_gpa');
    expect(await page.title()).toBe(`Your Education | ${partner.name}`);
    const gpa = page.locator('#hs_gpa');
    expect(await gpa.getAttribute('aria-invalid')).toBe('true');
    expect(await gpa.getAttribute('aria-describedby')).toContain('hs_gpa-error');
    expect(await gpa.getAttribute('aria-required')).toBe('true');
    await page.keyboard.type('3.8');
    await tabTo(page, byId('gpa_scale'));
    await chooseOption(page, '4');
    // the next Tab leaves the list: the GPA is checked and its message goes
    await page.keyboard.press('Tab');
    await page.locator('[data-field-key="hs_gpa"] .field-error').waitFor({ state: 'detached' });
    await tabTo(page, byName(frame.actions.continue));
    await page.keyboard.press('Enter');
    await arrivedAt(page, '/final-steps', 'Final Step');
    await tabTo(page, byName(frame.actions.submit));
    await page.keyboard.press('Enter');

    // ---- submitted
    await arrivedAt(page, '/completion', frame.completion.title);
    await page.getByRole('region', { name: 'Thanks, Ada!' }).waitFor();
    await noViolations(page);
    expect(problems.errors).toEqual([]);
    await context.close();
  }, testConversionCeilingMs() + 180_000);
});
