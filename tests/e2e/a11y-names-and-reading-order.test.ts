import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import resetForm from '../../schemas/auth/reset.json';
import frame from '../../schemas/text/frame.json';
import pageMessages from '../../src/shared/generated/page-messages.json';
import { ApiSession, outboxMail, STRONG_PASSWORD } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { openPage } from '../../support/browser.ts';
import { focusedAnnounced, headingOutline, imagesInTree } from '../helpers/accessibility-tree.ts';
import { axeViolations } from '../helpers/axe.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import { byId, byName, focusStop, tabTo } from '../helpers/keyboard.ts';
import { signedInPage } from '../../support/signed-in-page.ts';

/**
 * What a screen reader and speech control are given, found by hand in the accessibility
 * tree (axe passes every one): decorative icons, the order of headings, what a button leads
 * to, a username for password managers, messages that say more than the label, and names
 * that hold what is seen. Each is driven by the keyboard and read from Chromium's own tree.
 */
const env = useServerAndBrowser();
let counter = 0;

async function anonymousPage(path: string): Promise<Page> {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page } = await openPage(context);
  await page.goto(`${env.server.url}${path}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  return page;
}

async function signedIn(path: string): Promise<{ page: Page; api: ApiSession }> {
  return signedInPage(env.browser, env.server, { email: `names${++counter}@example.org`, lastPage: path }, { path, expectedErrors: [] });
}

const strictAxe = (page: Page) => axeViolations(page, { strict: true });

describe('decorative icons', () => {
  it('are not images in the accessibility tree: a list is not followed by "Open dropdown"', async () => {
    const page = await anonymousPage('/about');
    await page.locator('#root:not([data-drawn]) [data-page="about"]').waitFor();
    await tabTo(page, byId('country'), { max: 40 });
    expect(await focusedAnnounced(page)).toMatchObject({ role: 'combobox', name: 'Country' });
    expect(await imagesInTree(page)).toEqual([]);
    expect(await strictAxe(page)).toEqual([]);
    await page.context().close();

    // messages, the missing-information panel and the password checklist draw icons too
    const { page: validating, api } = await signedIn('/education-ug');
    await api.post('/api/web-status', { web_status: 'started' });
    await api.post('/api/web-status', { web_status: 'validating' });
    await validating.reload();
    await validating.locator('.missing-info').waitFor();
    await validating.locator('.field-error-block').first().waitFor();
    expect(await imagesInTree(validating)).toEqual([]);
    await validating.goto(`${env.server.url}/signup`);
    await validating.getByRole('heading', { level: 1 }).waitFor();
    await tabTo(validating, byId('field-password'), { max: 20 });
    await validating.keyboard.type('short');
    expect(await imagesInTree(validating)).toEqual([]);
    await validating.context().close();
  });
});

describe('reading order', () => {
  it('after a refused submit the page\'s h1 comes first, then the panel\'s h2 and h3', async () => {
    const { page, api } = await signedIn('/final-steps');
    await api.post('/api/web-status', { web_status: 'started' });
    await tabTo(page, byName(frame.actions.submit), { max: 80 });
    await page.keyboard.press('Enter');
    // refused: About You opens with the focus on the panel's heading
    await page.waitForURL(`${env.server.url}/about`);
    await page.waitForFunction(() => document.activeElement?.id === 'missing-info-title');
    const outline = await headingOutline(page);
    expect(outline[0]).toBe('h1 About You');
    expect(outline.slice(1, 4)).toEqual([`h2 ${frame.missing_info.title}`, `h3 ${frame.missing_info.pages_heading}`, `h3 ${frame.missing_info.summary_heading}`]);
    // no level is skipped on the way down
    const levels = outline.map((heading) => Number(heading[1]));
    expect(levels.filter((level, index) => index > 0 && level > levels[index - 1]! + 1)).toEqual([]);
    // the focus order follows: from the panel's heading, Tab reaches its links and then the first question
    await tabTo(page, byId('first_name'), { max: 120 });
    expect(await strictAxe(page)).toEqual([]);
    await page.context().close();
  });
});

describe('names that say what a control does and shows', () => {
  it('an anonymous visitor\'s "Save and Continue" and "Submit Application" say they open Sign Up', async () => {
    const page = await anonymousPage('/about');
    await tabTo(page, byId('first_name'), { max: 30 });
    await page.keyboard.type('Ada');
    await tabTo(page, byName(frame.actions.continue), { max: 120 });
    expect(await focusedAnnounced(page)).toEqual({ role: 'button', name: frame.actions.continue, description: frame.actions.signup_note });
    expect(await strictAxe(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${env.server.url}/signup`);
    await page.goto(`${env.server.url}/final-steps`);
    await page.locator('#root:not([data-drawn]) [data-page="final-steps"]').waitFor();
    await tabTo(page, byName(frame.actions.submit), { max: 120 });
    expect(await focusedAnnounced(page)).toMatchObject({ name: frame.actions.submit, description: frame.actions.signup_note });
    await page.context().close();

    // without answers "Save and Continue" goes to the next page, and says nothing of Sign Up
    const empty = await anonymousPage('/about');
    await tabTo(empty, byName(frame.actions.continue), { max: 120 });
    expect((await focusedAnnounced(empty)).description).toBe('');
    await empty.context().close();
  });

  it('step links hold their visible number in their name (label in name)', async () => {
    const page = await anonymousPage('/about');
    const named: string[] = [];
    for (const step of frame.steps) {
      await tabTo(page, (stop) => stop.region === 'nav' && stop.name.includes(step.label), { max: 10 });
      const seen = await page.evaluate(() => (document.activeElement as HTMLElement).innerText.replace(/\s+/g, ' ').trim());
      const { name } = await focusedAnnounced(page);
      expect(name, `shown: "${seen}"`).toContain(seen);
      named.push(name);
    }
    expect(named).toEqual(frame.steps.map((step, index) => `${index + 1} ${step.label}`));
    expect(await strictAxe(page)).toEqual([]);
    await page.context().close();
  });
});

describe('password managers', () => {
  it('/reset holds the account\'s username for them, unseen, unreached by Tab and unread, and still resets', async () => {
    const email = `reset${++counter}@example.org`;
    await createConfirmedApplicant(env.server.app, email);
    await new ApiSession(env.server.app).post('/public/forgot-password', { username: email });
    const link = /(\/reset\?\S+)/.exec((await outboxMail(env.server.app, email)).body)?.[1];
    expect(link).toBeTruthy();
    const page = await anonymousPage(link!);
    const username = page.locator('form input[autocomplete="username"]');
    expect(await username.inputValue()).toBe(email);
    expect(await username.getAttribute('type')).toBe('email');
    // in the same form as the new password, before it, as password managers read a form
    expect(await page.evaluate(() => {
      const fields = [...document.querySelectorAll('form input')].map((input) => input.getAttribute('autocomplete'));
      return fields.indexOf('username') >= 0 && fields.indexOf('username') < fields.indexOf('new-password');
    })).toBe(true);
    expect(await username.isVisible()).toBe(false);
    const tree = await page.locator('form').ariaSnapshot();
    expect(tree.match(/- textbox/g)?.length).toBe(resetForm.fields.length);

    // the keyboard goes from the top of the form to the new password: the username is no stop
    // (from the heading, focused as the app focuses it: made focusable for that moment)
    await page.locator('h1').evaluate((heading: HTMLElement) => { heading.tabIndex = -1; heading.focus(); });
    await page.keyboard.press('Tab');
    expect((await focusStop(page))?.id).toBe('field-password');
    expect(await strictAxe(page)).toEqual([]);
    const newPassword = `${STRONG_PASSWORD}x`;
    await page.keyboard.type(newPassword);
    await tabTo(page, byId('field-confirm_password'), { max: 4 });
    await page.keyboard.type(newPassword);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${env.server.url}/login`);
    await page.context().close();
  });
});

describe('messages', () => {
  it('a missing answer with a message of its own says it, at the field and in the panel, for a text box and a ZIP', async () => {
    const required = (page: string, key: string) => Object.values((pageMessages as Record<string, { required: Record<string, Record<string, string>> }>)[page]!.required)
      .map((messages) => messages[key]).find(Boolean)!;
    const cases = [
      { key: 'zip', label: 'ZIP/Postal Code', message: required('about', 'zip') }, // on About You
      { key: 'hs_gpa', label: 'GPA', message: required('education-ug', 'hs_gpa') }, // on Your Education
    ];
    const { page, api } = await signedIn('/about');
    await api.put('/api/answer', { country: 'USA' });
    await api.post('/api/web-status', { web_status: 'started' });
    await api.post('/api/web-status', { web_status: 'validating' });
    for (const { key, label, message } of cases) {
      expect(message).not.toBe(label);
      await page.goto(`${env.server.url}/about`);
      await page.locator('.missing-info').waitFor();
      // the panel lists it by its message, and its link leads to the field
      await tabTo(page, byName(message), { max: 80 });
      await page.keyboard.press('Enter');
      await page.waitForFunction((id) => document.activeElement?.id === id, key);
      const announced = await focusedAnnounced(page);
      expect(announced.name).toBe(label);
      expect(announced.description).toContain(`Error: ${message}`);
      expect(await page.locator(`[data-field-key="${key}"] .field-error`).textContent()).toBe(message);
      expect(await strictAxe(page)).toEqual([]);
    }
    await page.context().close();
  });
});
