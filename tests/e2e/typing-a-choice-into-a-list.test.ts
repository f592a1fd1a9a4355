import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import frame from '../../schemas/text/frame.json';
import { answersHiddenBy, ruleControllers } from '../../src/shared/answers/hidden-answers.ts';
import { form } from '../../src/shared/form/form-model-data.ts';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import { setPageVisibility } from '../helpers/page-visibility.ts';

/**
 * Keyboard and screen-reader applicants pick from a long list by typing its name, and many
 * names have a space. A list whose answer shows, hides or narrows other questions (a guarded
 * list) takes the name typed, not the options it passes on the way: nothing is saved or asked
 * until the choice is committed (the list left, or Enter), and then the question "Remove
 * answers you entered?" is asked once, of the option typed. The answers are read back through
 * the API, and every save the page sent is looked at.
 */
const env = useServerAndBrowser();
let counter = 0;

/** The lists whose answer a conditional rule reads, from the schemas' rules. */
const controllers = ruleControllers(form);
const guardedLists = Object.values(form.fields).filter((field) => field.widget === 'select' && controllers.has(field.key));

const COUNTRIES = ['United States', 'United Kingdom', 'South Africa', 'New Zealand'];

/** What is typed into each list, in order: the four countries, or the list's own options of several words. */
function typedInto(key: string): { label: string; value: string }[] {
  const options = form.options[form.fields[key]!.options!]!;
  const labels = form.fields[key]!.options === 'countries' ? COUNTRIES : options.map((option) => option.label).filter((label) => label.includes(' ')).slice(0, 4);
  return labels.map((label) => ({ label, value: options.find((option) => option.label === label)!.value }));
}

/**
 * Answers that show every guarded list, each with answers its next choices would hide: the
 * country from the United Kingdom with an International Phone given, the other countries
 * from the United States with a state, Parent 2 named, a visa answer, a branch of service.
 */
const STARTING_ANSWERS = {
  country: 'GBR', phone_international: '+442079460958',
  mailing_addr_same_as_perm_addr: 'N', mailing_country: 'USA', mailing_state: 'UT', mailing_city: 'Provo',
  parent_addr_same_as_stu_perm: 'N', parent_country: 'USA', parent_state: 'UT',
  parent_2_relationship: 'M', parent_2_first_name: 'Kept', parent_2_addr_same_as_stu_perm: 'N', parent_2_country: 'USA', parent_2_state: 'UT',
  citizenship_type: '3', visa_radio: 'Y', citizenship: 'GBR',
  military_status: '1', military_branch: form.options[form.fields.military_branch!.options!]![0]!.value,
  home_schooled: 'N', hs_country: 'USA', hs_state: 'UT',
  college_univ_attended: 'Y', ...Object.fromEntries([1, 2, 3, 4, 5].flatMap((n) => {
    const prefix = n === 1 ? 'college_' : `college_${n}_`;
    return [[`${prefix}name`, `College ${n}`], [`${prefix}country`, 'USA'], [`${prefix}state`, 'UT']];
  })),
};

const answersOf = async (api: ApiSession) => (await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer;
const asked = (page: Page) => page.getByRole('alertdialog', { name: frame.hidden_answers.title });

/** A signed-in applicant on `path` with the starting answers, and every answer the page sends to the server. */
async function applicantOn(path: string): Promise<{ page: Page; api: ApiSession; sent: Record<string, unknown>[]; close(): Promise<void> }> {
  const api = await createConfirmedApplicant(env.server.app, `lists${++counter}@example.org`);
  expect((await api.put('/api/answer', STARTING_ANSWERS)).status).toBe(200);
  expect((await api.put('/api/add-another', { button_id: 'add_college', num_components: 5 })).status).toBe(200);
  await api.put('/api/last-page', { last_page: path });
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: env.server.url })));
  const { page, problems } = await openPage(context);
  const sent: Record<string, unknown>[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT' && new URL(request.url()).pathname === '/api/answer') sent.push(request.postDataJSON() as Record<string, unknown>);
  });
  await page.goto(`${env.server.url}${path}`);
  await page.locator(`[data-page="${path.slice(1)}"]`).waitFor();
  return {
    page, api, sent,
    close: async () => {
      expect(problems.errors).toEqual([]);
      await context.close();
    },
  };
}

/** Types `label` into the list `key` (focused first) and commits it, with Tab or Enter; answers the question when the choice asks it. */
async function typeChoice(page: Page, api: ApiSession, key: string, label: string, value: string, commit: 'Tab' | 'Enter'): Promise<void> {
  const before = await answersOf(api);
  await page.locator(`#${key}`).focus();
  await page.keyboard.type(label);
  // shown as typed, answered only once committed
  expect(await page.locator(`#${key}`).inputValue(), `${key}: "${label}" shown`).toBe(value);
  expect(await asked(page).count(), `${key}: nothing asked while typing "${label}"`).toBe(0);
  // with nothing to commit (the name typed is the answer already) Enter opens the list's own popup, as a list does
  await page.keyboard.press(value === before[key] ? 'Tab' : commit);
  const hides = answersHiddenBy(form, before, { [key]: value }).length > 0;
  if (hides) {
    await asked(page).waitFor();
    await page.getByRole('button', { name: frame.hidden_answers.confirm }).click();
    await asked(page).waitFor({ state: 'hidden' });
  }
  await expect.poll(async () => (await answersOf(api))[key], { timeout: 20_000 }).toBe(value);
  expect(await asked(page).count()).toBe(0);
}

describe('typing a choice into a list that shows or hides other questions', () => {
  it('finds every guarded list in the schemas\' rules: the countries, Parent 2\'s relationship, citizenship, military status', () => {
    expect(guardedLists.map((field) => field.key).sort()).toEqual([
      'citizenship_type', 'college_2_country', 'college_3_country', 'college_4_country', 'college_5_country', 'college_country',
      'country', 'hs_country', 'mailing_country', 'military_status', 'parent_2_country', 'parent_2_relationship', 'parent_country',
    ]);
  });

  for (const [index, { key, page: pageId }] of guardedLists.entries()) {
    it(`saves each name typed into ${key}, and nothing else`, async () => {
      const { page, api, sent, close } = await applicantOn(`/${pageId}`);
      // committed by leaving the list (Tab) or with Enter, in turns
      for (const [step, { label, value }] of typedInto(key).entries()) {
        await typeChoice(page, api, key, label, value, (index + step) % 2 ? 'Enter' : 'Tab');
      }
      // no option passed on the way was ever sent: only the names typed
      const typed = typedInto(key).map(({ value }) => value);
      const values = sent.filter((body) => key in body).map((body) => body[key]);
      expect(values.every((item) => typed.includes(item as string)), `${key}: sent ${values.join(', ')}`).toBe(true);
      expect(values.at(-1)).toBe(typed.at(-1));
      await close();
    });
  }

  it('asks once, of the country typed, and keeps the old one and what it hides when the applicant keeps them', async () => {
    const { page, api, sent, close } = await applicantOn('/about');
    await page.locator('#country').focus();
    await page.keyboard.type('United States');
    expect(await page.locator('#country').inputValue()).toBe('USA');
    expect(await asked(page).count()).toBe(0);
    // left with Tab: the question names the answer it would remove
    await page.keyboard.press('Tab');
    await asked(page).waitFor();
    await page.waitForFunction((keep) => document.activeElement?.textContent === keep, frame.hidden_answers.keep);
    expect(await asked(page).textContent()).toMatch(/hides 1 answer you entered/);
    await screenshot(page, 'typed-country-asked', { fullPage: false });
    await page.keyboard.press('Enter'); // "Keep my answers"
    await asked(page).waitFor({ state: 'hidden' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('country');
    expect(await page.locator('#country').inputValue()).toBe('GBR');
    expect(await page.locator('#phone_international').inputValue()).not.toBe('');
    // a later change is saved (a state to wait for): the country and the phone are as they were, and were never sent
    await page.locator('#maid_name').fill('Marker');
    await expect.poll(async () => (await answersOf(api)).maid_name, { timeout: 20_000 }).toBe('Marker');
    expect(await answersOf(api)).toMatchObject({ country: 'GBR', phone_international: '+442079460958' });
    expect(sent.filter((body) => 'country' in body || 'phone_international' in body)).toEqual([]);
    await close();
  });

  it('saves a choice typed and not yet committed when the page is hidden, unless it would remove answers', async () => {
    const { page, api, sent, close } = await applicantOn('/about');
    await page.locator('[data-save-state="saved"]').waitFor();
    // from the United Kingdom to South Africa removes nothing: the international phone stays asked
    await page.locator('#country').focus();
    await page.keyboard.type('South Africa');
    expect(await page.locator('#country').inputValue()).toBe('ZAF');
    await page.locator('[data-save-state="pending"]').waitFor();
    expect(await page.locator('.save-status').textContent()).toContain(frame.save_status.pending);
    await setPageVisibility(page, 'hidden');
    await expect.poll(async () => (await answersOf(api)).country, { timeout: 20_000 }).toBe('ZAF');
    await setPageVisibility(page, 'visible');
    expect(await asked(page).count()).toBe(0);
    await page.locator('[data-save-state="saved"]').waitFor();

    // to the United Kingdom from the United States removes the mailing state: not decided unasked
    await page.locator('#mailing_country').focus();
    await page.keyboard.type('United Kingdom');
    expect(await page.locator('#mailing_country').inputValue()).toBe('GBR');
    await setPageVisibility(page, 'hidden');
    await setPageVisibility(page, 'visible');
    expect(await asked(page).count()).toBe(0);
    expect(await page.locator('#mailing_country').inputValue()).toBe('GBR');
    expect(await page.locator('[data-save-state]').getAttribute('data-save-state')).toBe('pending');
    expect(await answersOf(api)).toMatchObject({ mailing_country: 'USA', mailing_state: 'UT' });
    // left: asked, as ever, and saved once confirmed
    await page.keyboard.press('Tab');
    await asked(page).waitFor();
    await page.getByRole('button', { name: frame.hidden_answers.confirm }).click();
    await expect.poll(async () => (await answersOf(api)).mailing_country, { timeout: 20_000 }).toBe('GBR');
    expect(sent.filter((body) => 'mailing_country' in body).map((body) => body.mailing_country)).toEqual(['GBR']);
    await close();
  });

  it('takes Tab into the questions a choice shows', async () => {
    const { page, api, close } = await applicantOn('/about');
    await page.locator('#parent_2_relationship').focus();
    await page.keyboard.type('No second parent/guardian');
    await page.keyboard.press('Enter');
    await asked(page).waitFor();
    await page.getByRole('button', { name: frame.hidden_answers.confirm }).click();
    await expect.poll(async () => (await answersOf(api)).parent_2_relationship, { timeout: 20_000 }).toBe('NA');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('parent_2_relationship');
    // choosing a parent again by the arrows: the questions about them come as the list is left, and Tab goes into them
    await page.keyboard.press('ArrowUp');
    expect(await page.locator('#parent_2_relationship').inputValue()).toBe('O');
    expect(await page.locator('#parent_2_first_name').count()).toBe(0);
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-section="parent_2"]') !== null && document.activeElement?.id !== 'parent_2_relationship')).toBe(true);
    await expect.poll(async () => (await answersOf(api)).parent_2_relationship, { timeout: 20_000 }).toBe('O');
    await close();
  });
});
