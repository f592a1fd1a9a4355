import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import frame from '../../schemas/text/frame.json';
import { conditionKeys } from '../../src/shared/answers/conditions.ts';
import { form } from '../../src/shared/form/form-model-data.ts';
import { type ApiSession } from '../../support/api-session.ts';
import { axeViolations } from '../helpers/axe.ts';
import { screenshot } from '../../support/browser.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import { activeDescription, byName, focusInside, focusStop, tabTo } from '../helpers/keyboard.ts';
import { signedInPage } from '../../support/signed-in-page.ts';

/**
 * An answer that hides a block of saved answers (the schema's conditional rules) never
 * erases them at one key press: the arrow keys of a radio group choose as they move, a
 * closed list changes with them too, and "Clear answer" is one press. Such a choice is asked
 * when it is committed (the question left, or Enter), not as the arrows pass it; "Keep my
 * answers" keeps them here and on the server.
 */
const env = useServerAndBrowser();
let counter = 0;

interface Question {
  page: string;
  key: string;
  /** saved before: the question's answer, what it would hide, and whatever makes the question shown */
  saved: Record<string, string>;
  /** a saved text answer the change would hide */
  text: string;
  /** the key that moves the choice to an answer that hides the block */
  press: 'ArrowDown' | 'ArrowUp';
}

const QUESTIONS: Question[] = [
  { page: '/about', key: 'mailing_addr_same_as_perm_addr', press: 'ArrowUp', text: 'mailing_address_line_1',
    saved: { mailing_addr_same_as_perm_addr: 'N', mailing_address_line_1: '12 Kept Lane', mailing_city: 'Provo' } },
  { page: '/about', key: 'parent_addr_same_as_stu_perm', press: 'ArrowUp', text: 'parent_address_line_1',
    saved: { parent_addr_same_as_stu_perm: 'N', parent_address_line_1: '14 Kept Lane' } },
  { page: '/about', key: 'parent_2_addr_same_as_stu_perm', press: 'ArrowUp', text: 'parent_2_address_line_1',
    saved: { parent_2_addr_same_as_stu_perm: 'N', parent_2_address_line_1: '16 Kept Lane' } },
  { page: '/about', key: 'parent_2_relationship', press: 'ArrowDown', text: 'parent_2_first_name',
    saved: { parent_2_relationship: 'O', parent_2_first_name: 'Kept' } },
  { page: '/education-ug', key: 'test_optional', press: 'ArrowDown', text: 'sat_score_math',
    saved: { test_taken_ind: 'Y', test_optional: 'Y', sat_taken: 'Y', sat_score_math: '700' } },
  { page: '/education-ug', key: 'home_schooled', press: 'ArrowUp', text: 'hs_name',
    saved: { home_schooled: 'N', hs_name: 'Kept High School' } },
  { page: '/education-ug', key: 'college_univ_attended', press: 'ArrowDown', text: 'college_name',
    saved: { college_univ_attended: 'Y', college_name: 'Kept College', college_2_name: 'Second College' } },
];

async function signedIn(question: Question): Promise<{ page: Page; api: ApiSession }> {
  const { page, api } = await signedInPage(env.browser, env.server, {
    email: `hidden${++counter}@example.org`, answers: question.saved, addAnother: { add_college: 2 },
    lastPage: question.page !== '/about' ? question.page : undefined,
  }, { path: question.page, expectedErrors: [] });
  await expect.poll(() => page.locator(`#${question.text}`).inputValue()).toBe(question.saved[question.text]);
  return { page, api };
}

const answerOf = async (api: ApiSession) => (await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer;

const controlId = (question: Question) => `${question.key}-${question.saved[question.key]}`;

/**
 * The focus on the question's control (the chosen radio, or the list). The first question is
 * reached by Tab alone from the top of the page, as a keyboard user reaches it (a radio group's
 * Tab stop is its chosen radio); the others are focused at once: the whole Tab order is tried
 * in a11y-keyboard, and each walk to a question takes about a hundred presses.
 */
async function reachQuestion(page: Page, question: Question): Promise<void> {
  if (question === QUESTIONS[0]) {
    await tabTo(page, (stop) => stop.id === question.key || stop.id === controlId(question), { max: 250 });
    return;
  }
  const radio = page.locator(`#${controlId(question)}`);
  await ((await radio.count()) ? radio : page.locator(`#${question.key}`)).focus();
}

/** The value the page shows for the question: the chosen radio's, or the list's. */
const shownValue = (page: Page, key: string) => page.evaluate((name) => {
  const radio = document.querySelector<HTMLInputElement>(`input[type="radio"][name="${name}"]:checked`);
  return radio ? radio.value : (document.getElementById(name) as HTMLSelectElement | null)?.value ?? '';
}, key);

/**
 * "Keep my answers" kept everything, on the page and on the server: an answer typed after it
 * is saved (a positive state to wait for), and every saved answer is still there with it.
 */
async function expectKept(page: Page, api: ApiSession, question: Question): Promise<void> {
  expect(await shownValue(page, question.key)).toBe(question.saved[question.key]);
  expect(await page.locator(`#${question.text}`).inputValue()).toBe(question.saved[question.text]);
  const marker = question.page === '/about' ? 'maid_name' : 'activ_athl';
  await page.locator(`#${marker}`).focus();
  await page.keyboard.type('Marker');
  await expect.poll(async () => (await answerOf(api))[marker], { timeout: 20_000 }).toBe('Marker');
  const answer = await answerOf(api);
  for (const [key, value] of Object.entries(question.saved)) expect(answer[key], key).toBe(value);
}

const asked = (page: Page) => page.getByRole('alertdialog', { name: frame.hidden_answers.title });

describe('an answer that hides saved answers is asked first', () => {
  it('covers every question whose answer hides a block of answers', () => {
    const blocks = new Set(form.pageOrder.flatMap((id) => form.pages[id].visibility)
      .filter((rule) => rule.keys.length >= 6).flatMap((rule) => conditionKeys(rule.when)));
    expect([...blocks].sort()).toEqual(QUESTIONS.map((question) => question.key).sort());
  });

  for (const [index, question] of QUESTIONS.entries()) {
    // committed with Enter, or by leaving the question with Tab
    const commit = index % 2 ? 'Tab' : 'Enter';
    it(`${question.key}: an arrow key, then ${commit}, asks; "Keep my answers" keeps them here and on the server`, async () => {
      const { page, api } = await signedIn(question);
      await reachQuestion(page, question);
      await page.keyboard.press(question.press);
      // the arrow has moved the choice, and nothing is asked or changed yet
      expect(await shownValue(page, question.key)).not.toBe(question.saved[question.key]);
      expect(await asked(page).count()).toBe(0);
      expect(await page.locator(`#${question.text}`).inputValue()).toBe(question.saved[question.text]);
      await page.keyboard.press(commit);
      const dialog = asked(page);
      await dialog.waitFor();
      await page.waitForFunction((keep) => document.activeElement?.textContent === keep, frame.hidden_answers.keep);
      expect(await dialog.textContent()).toMatch(/hides \d+ answers? you entered/);
      if (question.key === 'mailing_addr_same_as_perm_addr') {
        await screenshot(page, 'hidden-answers-question');
        expect(await axeViolations(page, { strict: true })).toEqual([]);
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      // the focus is back on the kept answer
      await expect.poll(() => activeDescription(page)).toMatch(new RegExp(`^#${question.key}(-${question.saved[question.key]})?$`));
      expect(await page.locator(`#${question.text}`).isVisible()).toBe(true);
      await expectKept(page, api, question);
      await page.context().close();
    });
  }

  for (const question of QUESTIONS.filter((item) => !form.fields[item.key]?.required && form.fields[item.key]?.widget === 'radio')) {
    it(`${question.key}: "Clear answer" asks; "Keep my answers" keeps them`, async () => {
      const { page, api } = await signedIn(question);
      await reachQuestion(page, question);
      await tabTo(page, byName(/Clear answer/), { max: 2 });
      await page.keyboard.press('Enter');
      const dialog = asked(page);
      await dialog.waitFor();
      await page.waitForFunction((keep) => document.activeElement?.textContent === keep, frame.hidden_answers.keep);
      await page.keyboard.press('Enter'); // "Keep my answers"
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => activeDescription(page)).toMatch(new RegExp(`^#${question.key}(-${question.saved[question.key]})?$`));
      await expectKept(page, api, question);
      await page.context().close();
    });
  }

  it('an arrow key there and back asks nothing and changes nothing, and leaving then keeps everything', async () => {
    const question = QUESTIONS.find((item) => item.key === 'college_univ_attended')!;
    const { page, api } = await signedIn(question);
    const sent: Record<string, unknown>[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && new URL(request.url()).pathname === '/api/answer') sent.push(request.postDataJSON() as Record<string, unknown>);
    });
    await reachQuestion(page, question);
    await page.keyboard.press('ArrowDown');
    expect(await shownValue(page, question.key)).toBe('N');
    await page.keyboard.press('ArrowUp');
    expect(await shownValue(page, question.key)).toBe('Y');
    await page.keyboard.press('Tab');
    expect(await asked(page).count()).toBe(0);
    await expectKept(page, api, question);
    expect(sent.filter((body) => question.key in body)).toEqual([]);
    await page.context().close();
  });

  it('"Change and remove" removes them, on the server too, and the add-another count goes back to one', async () => {
    const question = QUESTIONS.find((item) => item.key === 'college_univ_attended')!;
    const { page, api } = await signedIn(question);
    expect(await page.locator('#college_2_name').inputValue()).toBe('Second College');
    await reachQuestion(page, question);
    await page.keyboard.press(question.press);
    await page.keyboard.press('Enter');
    const dialog = asked(page);
    await focusInside(dialog);
    expect(await dialog.textContent()).toContain('hides 2 answers you entered');
    await page.keyboard.press('Tab');
    expect((await focusStop(page))?.name).toBe(frame.hidden_answers.confirm);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => activeDescription(page)).toBe(`#${question.key}-N`);
    await page.locator('#college_name').waitFor({ state: 'detached' });
    await expect.poll(async () => (await answerOf(api)).college_2_name ?? '', { timeout: 20_000 }).toBe('');
    expect((await answerOf(api)).college_name ?? '').toBe('');
    await expect.poll(async () => (await api.get<Record<string, number>>('/api/add-another')).body).toMatchObject({ add_college: 1 });

    // choosing "Yes" again shows one empty college, not two
    await page.keyboard.press('ArrowUp');
    await page.locator('#college_name').waitFor();
    expect(await page.locator('#college_2_name').count()).toBe(0);
    await page.context().close();
  });
});
