import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import lookupText from '../../schemas/text/lookup.json';
import { readCsv } from '../../scripts/lookups/csv-lines.ts';
import { importLookups } from '../../scripts/lookups/import-lookups.ts';
import { signServiceToken } from '../../src/server/pdf/service-token.ts';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { axeViolations } from '../helpers/axe.ts';
import { openPage, screenshot, type PageProblems } from '../../support/browser.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { dropRequests } from '../helpers/dropped-requests.ts';
import { setPageVisibility } from '../helpers/page-visibility.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';
import frame from '../../schemas/text/frame.json';

/**
 * The school search and the ZIP look-up in Chromium, on the real server and database with
 * the small look-up lists of tests/fixtures/lookups (real school names: the shared lists
 * load in the same way, only slower).
 */
let server: TestServer;
let browser: Browser;
let counter = 0;

const fixture = (name: string) => readCsv(readFileSync(join(import.meta.dirname, '../fixtures/lookups', name), 'utf8'));

beforeAll(async () => {
  server = await startTestServer();
  await importLookups(server.app.db, 'hs_ceeb', fixture('hs_ceeb.csv'));
  await importLookups(server.app.db, 'college_ceeb', fixture('college_ceeb.csv'));
  await importLookups(server.app.db, 'address', fixture('address.csv'));
  browser = await workerBrowser();
});

afterAll(async () => {
  await closeContexts(browser);
  await server?.close();
});

const field = (page: Page, key: string) => page.locator(`[data-field-key="${key}"]`);
const radio = (page: Page, key: string, label: string) => field(page, key).locator('label.bp6-control', { hasText: new RegExp(`^${label}$`) }).click();
const listbox = (page: Page, key: string) => page.locator(`#${key}-suggestions`);
const options = (page: Page, key: string) => listbox(page, key).getByRole('option');
const useTyped = (text: string) => lookupText.use_typed.replace('{text}', text);

const SCHOOL = ['name', 'ceeb', 'address_line_1', 'city', 'state', 'zip', 'country'] as const;

async function values(page: Page, prefix: string, parts: readonly string[] = SCHOOL): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const part of parts) result[part] = await page.locator(`#${prefix}${part}`).inputValue();
  return result;
}

/**
 * The saved answers, once the save queue has sent what the page shows (polled until they
 * match, for as long as the test may run: an autosave on a busy machine takes its time).
 */
async function savedAnswers(api: ApiSession, expected: Record<string, string>): Promise<Record<string, string>> {
  let answers: Record<string, string> = {};
  for (let attempt = 0; attempt < 400; attempt++) {
    answers = ((await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer) ?? {};
    if (Object.entries(expected).every(([key, value]) => (answers[key] ?? '') === value)) return answers;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return answers;
}

async function loggedInPage(path: string, expectedErrors?: RegExp[]): Promise<{ page: Page; api: ApiSession; problems: PageProblems; email: string }> {
  const email = `lookup${++counter}@example.org`;
  const api = await createConfirmedApplicant(server.app, email);
  const context = await browser.newContext();
  await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
  const { page, problems } = await openPage(context, expectedErrors ? { expectedErrors } : {});
  await page.goto(`${server.url}${path}`);
  await page.locator('[data-page]').waitFor();
  return { page, api, problems, email };
}

/** The education page with the high-school block shown (it asks "home-schooled?" first). */
async function highSchoolPage(expectedErrors?: RegExp[]) {
  const opened = await loggedInPage('/education-ug', expectedErrors);
  await radio(opened.page, 'home_schooled', 'No');
  await opened.page.locator('#hs_name[role="combobox"]').waitFor(); // the search is loaded with the block
  return opened;
}

/** Types into the search and waits for the list to show `first` as its first suggestion. */
async function search(page: Page, key: string, text: string, first: string) {
  await page.locator(`#${key}`).click();
  await page.locator(`#${key}`).pressSequentially(text, { delay: 40 });
  await options(page, key).first().filter({ hasText: first }).waitFor();
}

async function chooseFirstLincoln(page: Page, by: 'keyboard' | 'mouse' = 'keyboard') {
  await search(page, 'hs_name', 'lincoln hi', 'LINCOLN HS');
  if (by === 'mouse') {
    await options(page, 'hs_name').first().click();
  } else {
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
  }
  await expect.poll(() => page.locator('#hs_ceeb').inputValue()).toBe('140001');
}

const LINCOLN_HS = { name: 'LINCOLN HS', ceeb: '140001', address_line_1: '', city: 'LINCOLN', state: 'NE', zip: '68510', country: 'USA' };
const prefixed = (prefix: string, parts: Record<string, string>) => Object.fromEntries(Object.entries(parts).map(([part, value]) => [`${prefix}${part}`, value]));

describe('school search in Chromium', () => {
  it('suggests high schools with "City, ST" as an accessible combobox, fills the block from the keyboard and saves it', async () => {
    const { page, api, problems, email } = await highSchoolPage();
    const input = page.locator('#hs_name');
    expect(await input.getAttribute('role')).toBe('combobox');
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    expect(await input.getAttribute('aria-controls')).toBe('hs_name-suggestions');
    expect(await page.locator('#hs_ceeb').getAttribute('readonly')).not.toBeNull();
    // an address typed earlier must give way to the chosen school's (this list has no street)
    await page.locator('#hs_address_line_1').fill('1 Old Road');

    const lookups: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/lookup/find')) lookups.push(new URL(request.url()).search);
    });
    const lastCall = page.waitForResponse((response) => response.url().includes('text=lincoln+hi&'));
    await search(page, 'hs_name', 'lincoln hi', 'LINCOLN HS');
    await lastCall; // 'lincoln h' may already show the school: the whole text is asked for after the last key
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    const first = options(page, 'hs_name').first();
    expect(await first.textContent()).toContain('LINCOLN, NE');
    expect(await options(page, 'hs_name').last().textContent()).toBe(useTyped('lincoln hi'));
    expect(await options(page, 'hs_name').count()).toBe(6); // 5 suggestions, then 'Use: ...'
    // debounced (how often it asks, on the page's own clock: 'asks again every 500 ms' below)
    const suggestionCalls = lookups.filter((query) => query.includes('text='));
    expect(suggestionCalls.at(-1)).toContain('text=lincoln+hi&category=hs_ceeb&max_results=5');

    await page.keyboard.press('ArrowDown');
    const firstId = await first.getAttribute('id');
    expect(await input.getAttribute('aria-activedescendant')).toBe(firstId);
    expect(await first.getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'school-search-open');
    expect(await axeViolations(page, { strict: true })).toEqual([]);

    await page.keyboard.press('Enter');
    await expect.poll(() => values(page, 'hs_')).toEqual(LINCOLN_HS);
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    expect(lookups.some((query) => query.includes('id=140001&category=hs_ceeb'))).toBe(true);
    const saved = await savedAnswers(api, prefixed('hs_', LINCOLN_HS));
    const { address_line_1: _street, ...filled } = LINCOLN_HS;
    expect(saved).toMatchObject({ ...prefixed('hs_', filled), hs_state_desc: 'Nebraska' });
    expect(saved.hs_address_line_1 ?? '').toBe(''); // the typed '1 Old Road' is gone

    // the other fields stay the applicant's to correct
    await page.locator('#hs_address_line_1').fill('2229 J Street');
    await savedAnswers(api, { hs_address_line_1: '2229 J Street' });

    expect(problems.errors).toEqual([]);
    await page.context().close();

    // the read-only service view (the PDF's) shows the name with its code
    const applicant = await server.app.db.selectFrom('applicants').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const token = signServiceToken(server.app.serviceSecret, applicant.id, 60_000);
    const viewer = await browser.newContext();
    const view = await openPage(viewer);
    await view.page.goto(`${server.url}/education-ug?service_token=${encodeURIComponent(token)}`);
    await view.page.locator('.page-form-service').waitFor();
    const service = field(view.page, 'hs_name');
    await expect.poll(() => service.textContent()).toContain('LINCOLN HS (Ceeb: 140001)');
    expect(await service.textContent()).toContain('2229 J Street');
    expect(view.problems.errors).toEqual([]);
    await viewer.close();
  });

  it('fills a college block, with its street address, when the applicant has attended college', async () => {
    const { page, api, problems } = await loggedInPage('/education-ug');
    expect(await page.locator('#college_name').count()).toBe(0);
    await radio(page, 'college_univ_attended', 'Yes');
    await page.locator('#college_name[role="combobox"]').waitFor();
    await search(page, 'college_name', 'charter', 'Charter College');
    expect(await options(page, 'college_name').first().textContent()).toContain('Anchorage, AK');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const charter = { name: 'Charter College', ceeb: '3453', address_line_1: '2221 East Northern Lights Boulevard, Suite 120', city: 'Anchorage', state: 'AK', zip: '99508-4103' };
    await expect.poll(() => values(page, 'college_', Object.keys(charter))).toEqual(charter);
    expect(await page.locator('#college_country').inputValue()).toBe('USA'); // the college block has a country now, filled with the rest
    expect(await savedAnswers(api, prefixed('college_', charter))).toMatchObject(prefixed('college_', charter));
    expect(problems.errors).toEqual([]);
    await page.context().close();
  });

  it('keeps free text with "Use: ..." and its message, emptying the related fields', async () => {
    const { page, api, problems } = await highSchoolPage();
    await chooseFirstLincoln(page);
    const typed = 'Prairie Home Learning Co-op';
    await page.locator('#hs_name').fill('');
    await page.locator('#hs_name').pressSequentially(typed, { delay: 20 });
    const last = options(page, 'hs_name').last();
    await last.filter({ hasText: useTyped(typed) }).waitFor();
    expect(await options(page, 'hs_name').count()).toBe(1); // nothing found: only the typed text
    await page.keyboard.press('ArrowUp'); // Up from the input goes to the last option
    expect(await last.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    const message = page.getByText(lookupText.enter_below);
    await message.waitFor();
    expect(await page.locator('#hs_name').getAttribute('aria-describedby')).toContain(await message.getAttribute('id') ?? 'none');
    const empty = { name: typed, ceeb: '', address_line_1: '', city: '', state: '', zip: '', country: '' };
    await expect.poll(() => values(page, 'hs_')).toEqual(empty);
    const saved = await savedAnswers(api, prefixed('hs_', empty));
    for (const [key, value] of Object.entries(prefixed('hs_', empty))) expect(saved[key] ?? '', key).toBe(value);

    // now the applicant types the school's details
    await page.locator('#hs_city').fill('Madison');
    await page.locator('#hs_country').selectOption('USA');
    await page.locator('#hs_state').selectOption('WI');
    await page.locator('#hs_zip').fill('53703');
    expect(await savedAnswers(api, { hs_name: typed, hs_city: 'Madison', hs_state: 'WI', hs_zip: '53703' })).toMatchObject({ hs_city: 'Madison', hs_state: 'WI' });
    expect(problems.errors).toEqual([]);
    await page.context().close();
  });

  it('empties every related field when the name is cleared, and Escape closes the list', async () => {
    const { page, api, problems } = await highSchoolPage();
    await chooseFirstLincoln(page, 'mouse');
    await expect.poll(() => values(page, 'hs_')).toEqual(LINCOLN_HS);
    await savedAnswers(api, prefixed('hs_', LINCOLN_HS));

    await page.locator('#hs_name').pressSequentially('x');
    await options(page, 'hs_name').last().filter({ hasText: useTyped('LINCOLN HSx') }).waitFor();
    await page.keyboard.press('Escape');
    expect(await page.locator('#hs_name').getAttribute('aria-expanded')).toBe('false');
    expect(await listbox(page, 'hs_name').isHidden()).toBe(true);
    expect(await page.locator('#hs_ceeb').inputValue()).toBe('140001'); // closing changes nothing

    await page.locator('#hs_name').fill('');
    const empty = Object.fromEntries(SCHOOL.map((part) => [part, '']));
    await expect.poll(() => values(page, 'hs_')).toEqual(empty);
    const saved = await savedAnswers(api, prefixed('hs_', empty));
    for (const part of SCHOOL) expect(saved[`hs_${part}`] ?? '', part).toBe('');
    expect(problems.errors).toEqual([]);
    await page.context().close();
  });

  it('keeps the chosen label as the name when the full record cannot be fetched', async () => {
    const { page, api, problems } = await highSchoolPage([/status of (404|500)/, /failed with (404|500)/]);
    await page.route(/\/lookup\/find\?.*\bid=/, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'down', code: 'INTERNAL' }) }));
    await search(page, 'hs_name', 'ajo', 'AJO HIGH SCHOOL');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByText(lookupText.enter_below).waitFor();
    const kept = { name: 'AJO HIGH SCHOOL', ceeb: '', address_line_1: '', city: '', state: '', zip: '', country: '' };
    await expect.poll(() => values(page, 'hs_')).toEqual(kept);
    expect((await savedAnswers(api, { hs_name: 'AJO HIGH SCHOOL' })).hs_name).toBe('AJO HIGH SCHOOL');
    expect(problems.errors).toEqual([]);
    await page.context().close();
  });

  it('offers only the typed text when the suggestion call fails', async () => {
    const { page, problems } = await highSchoolPage([/status of 500/, /failed with 500/]);
    await page.route(/\/lookup\/find\?.*\btext=/, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'down' }) }));
    const refused = page.waitForResponse((response) => response.url().includes('text=lincoln') && response.status() === 500);
    await page.locator('#hs_name').pressSequentially('lincoln', { delay: 20 });
    await options(page, 'hs_name').last().filter({ hasText: useTyped('lincoln') }).waitFor();
    await refused; // the debounced call has come back with an error
    expect(await options(page, 'hs_name').allTextContents()).toEqual([useTyped('lincoln')]);
    // leaving the field keeps what was typed, as 'Use: ...' would
    await page.keyboard.press('Tab');
    await page.getByText(lookupText.enter_below).waitFor();
    expect(await page.locator('#hs_name').inputValue()).toBe('lincoln');
    expect(problems.errors).toEqual([]);
    await page.context().close();
  });

  it('keeps a school name typed but not chosen when the tab is closed, never saying meanwhile that all is saved', async () => {
    const { page, api, problems } = await highSchoolPage();
    await chooseFirstLincoln(page);
    await savedAnswers(api, prefixed('hs_', LINCOLN_HS));
    await page.locator('[data-save-state="saved"]').waitFor();
    const typed = 'Prairie Ridge Academy';
    await page.locator('#hs_name').selectText();
    await page.locator('#hs_name').pressSequentially(typed, { delay: 20 });
    await options(page, 'hs_name').last().filter({ hasText: useTyped(typed) }).waitFor();
    // a search's keys are not each an answer, and the page does not say they are saved
    await page.locator('[data-save-state="pending"]').waitFor();
    expect(await page.locator('.save-status').textContent()).toContain(frame.save_status.pending);
    expect((await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer.hs_name).toBe('LINCOLN HS');
    // closed before the name was chosen or left: asked first, and the name goes with the page's last save
    const asked = new Promise<string>((resolve) => page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.accept();
    }));
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    const typedOnly = { name: typed, ceeb: '', address_line_1: '', city: '', state: '', zip: '', country: '' };
    const saved = await savedAnswers(api, prefixed('hs_', typedOnly));
    for (const [key, value] of Object.entries(prefixed('hs_', typedOnly))) expect(saved[key] ?? '', key).toBe(value);
    expect(problems.errors).toEqual([]);
    await page.context().close();
  });

  // a desktop browser asks before the tab goes; a phone's may close it unasked, and what is
  // typed is then committed only at pagehide, the page's last event
  it.each([
    { closing: 'asked first', runBeforeUnload: true },
    { closing: 'closed unasked, as a phone may', runBeforeUnload: false },
  ])('keeps a school name typed while no save gets through in a tab then closed ($closing), and saves it from the next page', async ({ runBeforeUnload }) => {
    const { page, api } = await highSchoolPage([/Failed to load resource/, /failed with/]);
    await page.locator('[data-save-state="saved"]').waitFor();
    const context = page.context();
    // The connection drops every save, and what the closing page hands the browser to send:
    // only the encrypted copy kept in this browser can carry the name. (The browser's offline
    // emulation would not stop the closing page's request, and it may end the context.)
    const letSavesThrough = dropRequests(server.app.server, (request) => request.method === 'PUT' && request.url === '/api/answer');
    const typed = 'Prairie Ridge Academy';
    await page.locator('#hs_name').click();
    await page.locator('#hs_name').pressSequentially(typed, { delay: 20 });
    await page.locator('[data-save-state="pending"], [data-save-state="offline"]').first().waitFor();
    // another tab of this browser, blank until the first is gone
    const { page: later, problems } = await openPage(context);
    const asked = new Promise<string>((resolve) => page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.accept();
    }));
    await page.close({ runBeforeUnload });
    if (runBeforeUnload) expect(await asked).toBe('beforeunload');
    expect((await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer.hs_name).toBeUndefined();

    letSavesThrough();
    await later.goto(`${server.url}/education-ug`);
    await later.locator('[data-save-state="saved"]').waitFor();
    expect((await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer.hs_name).toBe(typed);
    await expect.poll(() => later.locator('#hs_name').inputValue()).toBe(typed);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('saves the school name being typed when the page is hidden, and the search goes on where it was', async () => {
    const { page, api, problems } = await highSchoolPage();
    await search(page, 'hs_name', 'lincoln hi', 'LINCOLN HS');
    await page.locator('[data-save-state="pending"]').waitFor();
    // the applicant switches to another app
    await setPageVisibility(page, 'hidden');
    expect((await savedAnswers(api, { hs_name: 'lincoln hi' })).hs_name).toBe('lincoln hi');
    await setPageVisibility(page, 'visible');
    // back: the list is open as it was, and a school chosen from it fills the block
    expect(await page.locator('#hs_name').getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('#hs_name').inputValue()).toBe('lincoln hi');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => values(page, 'hs_')).toEqual(LINCOLN_HS);
    expect(await savedAnswers(api, prefixed('hs_', LINCOLN_HS))).toMatchObject(prefixed('hs_', { name: 'LINCOLN HS', ceeb: '140001', city: 'LINCOLN' }));
    await page.locator('[data-save-state="saved"]').waitFor();
    expect(problems.errors).toEqual([]);
    await page.context().close();
  });

  it('loads the search with the block, keeping what was typed and the focus while it loads', async () => {
    const context = await browser.newContext();
    const { page, problems } = await openPage(context);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    await page.route(/SchoolSearchWidget-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const chunks: string[] = [];
    page.on('request', (request) => {
      if (/SchoolSearchWidget-/.test(request.url())) chunks.push(request.url());
    });
    await page.goto(`${server.url}/education-ug`);
    await page.locator('#home_schooled, [data-field-key="home_schooled"]').first().waitFor();
    expect(chunks).toEqual([]); // not part of a first visit while no school block shows
    await radio(page, 'home_schooled', 'No');
    await page.locator('#hs_name').pressSequentially('linc');
    expect(chunks).toHaveLength(1);
    expect(await page.locator('#hs_name').getAttribute('role')).toBeNull(); // still the plain text answer
    release();
    await page.locator('#hs_name[role="combobox"]').waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'hs_name');
    await page.keyboard.type('oln hi');
    await options(page, 'hs_name').first().filter({ hasText: 'LINCOLN HS' }).waitFor();
    expect(await page.locator('#hs_name').inputValue()).toBe('lincoln hi');
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('asks again every 500 ms while the applicant keeps typing, once after a pause', async () => {
    const context = await browser.newContext();
    const { page, problems } = await openPage(context);
    await page.clock.install();
    await page.goto(`${server.url}/education-ug`);
    await radio(page, 'home_schooled', 'No');
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/lookup/find')) calls.push(new URL(request.url()).searchParams.get('text') ?? '');
    });
    // 16 keys 120 ms apart on the page's own clock (moved by the test, so a busy machine
    // cannot stretch the gaps): never a 200 ms pause, so only the 500 ms max wait asks before the end
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    await page.locator('#hs_name').focus();
    for (const key of 'north central hi') {
      await page.keyboard.type(key);
      await page.clock.runFor(120);
    }
    // the pause: the last call goes; then time runs as usual while the server answers (the
    // list's own timers must not wait on a clock the test holds, however slow the answer)
    await page.clock.runFor(300);
    await page.clock.resume();
    await expect.poll(() => calls.at(-1)).toBe('north central hi');
    await options(page, 'hs_name').first().filter({ hasText: 'NORTH CENTRAL HIGH SCHOOL' }).waitFor();
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.length).toBeLessThan(16);
    expect(calls.at(-1)).toBe('north central hi');
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});

describe('ZIP look-up in Chromium', () => {
  it('offers the city and state of a US ZIP and fills them', async () => {
    const context = await browser.newContext();
    const { page, problems } = await openPage(context);
    // the look-ups the page asks for, recorded as it calls fetch (not when the answer comes)
    await page.addInitScript(() => {
      const asked: string[] = [];
      Object.assign(window, { lookupsAsked: asked });
      const original = window.fetch.bind(window);
      window.fetch = (input, init) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (url.includes('/lookup/find')) asked.push(url);
        return original(input, init);
      };
    });
    await page.goto(`${server.url}/about`);
    await page.locator('#zip').waitFor();
    await page.locator('#zip').pressSequentially('84101');
    const offer = page.getByRole('button', { name: lookupText.zip_fill.replace('{place}', 'Salt Lake City, UT') });
    await offer.waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await offer.click();
    await expect.poll(() => page.locator('#city').inputValue()).toBe('Salt Lake City');
    expect(await page.locator('#state').inputValue()).toBe('UT');
    await offer.waitFor({ state: 'detached' }); // filled: nothing left to offer

    // abroad there is nothing to offer: the widget decides in the effect that follows drawing the
    // typed ZIP, so once the field shows it and two frames have passed, no look-up was asked
    await page.locator('#zip').fill('');
    await page.locator('#country').selectOption('DEU');
    // the state the look-up filled is a US answer: leaving the country asks before removing it
    await page.getByRole('button', { name: frame.hidden_answers.confirm }).click();
    await expect.poll(() => page.locator('#country').inputValue()).toBe('DEU');
    await page.locator('#zip').pressSequentially('84102');
    await expect.poll(() => page.locator('#zip').inputValue()).toBe('84102');
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0)))));
    const asked = await page.evaluate(() => (window as unknown as { lookupsAsked: string[] }).lookupsAsked);
    expect(asked.some((url) => url.includes('84101'))).toBe(true); // the US ZIP above was asked this way
    expect(asked.filter((url) => url.includes('84102'))).toEqual([]);
    expect(await page.getByRole('button', { name: /Fill in city and state/ }).count()).toBe(0);
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});
