import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import loginForm from '../../schemas/auth/login.json';
import authMessages from '../../schemas/auth/messages.json';
import partner from '../../schemas/partner.json';
import frame from '../../schemas/text/frame.json';
import spanishFrame from '../../schemas/i18n/es/text/frame.json';
import spanishMessages from '../../schemas/i18n/es/text/api-messages.json';
import apiMessages from '../../schemas/text/api-messages.json';
import { form } from '../../src/shared/form/form-model-data.ts';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { openPage, stylesApplied } from '../../support/browser.ts';
import { axeViolations } from '../helpers/axe.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';

/**
 * A form page is usable at its HTML floor: the server draws it (the same React render as the
 * browser's, with the applicant's answers, in their language), the browser's app takes the
 * markup over without drawing it again, what was typed before the scripts came is saved, and
 * without scripts the page still saves through its own form post.
 */

const env = useServerAndBrowser({ env: { RENDER_WORKERS: '1' } });
let counter = 0;

async function signedIn(context: BrowserContext, language: 'en' | 'es' = 'en'): Promise<ApiSession> {
  const api = await createConfirmedApplicant(env.server.app, `floor${++counter}@example.org`);
  await context.addCookies([
    ...[...api.cookies].map(([name, value]) => ({ name, value, url: env.server.url })),
    { name: 'lang', value: language, url: env.server.url },
  ]);
  return api;
}

/** Holds the page's scripts back until release() is called: the page shows only what the server drew. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Whether React has taken over every element `selector` finds, and there is one (each node carries React's fiber). */
const takenOver = (page: Page, selector: string) => page.evaluate((found) => {
  const elements = [...document.querySelectorAll(found)];
  return elements.length > 0 && elements.every((element) => Object.keys(element).some((key) => key.startsWith('__reactFiber')));
}, selector);

/** Whether React has taken the page's heading over. */
const hydratedHeading = (page: Page) => takenOver(page, '#page-title');

/** The applicant's saved answer to `key`, as the API reads it back. */
const savedAnswer = async (api: ApiSession, key: string) => (await api.get<{ answer: Record<string, unknown> }>('/api/profile')).body.answer[key];

/** The first text field of the page's last section that has one: far from where React starts. */
const lastSectionTextField = (page: Page) => page.locator('[data-page] section[data-section]:has(input[type="text"])').last().locator('input[type="text"]').first();

describe('a form page at its HTML floor', () => {
  it('keeps a character typed before the scripts came, and saves it once they have', async () => {
    const context = await env.browser.newContext();
    const api = await signedIn(context);
    const { page, problems } = await openPage(context);
    const release = await holdScripts(page);
    // the load event waits for the scripts held back
    await page.goto(`${env.server.url}/about`, { waitUntil: 'commit' });
    const first = page.locator('#root[data-drawn] [data-page] input[type="text"]').first();
    await first.waitFor();
    const key = (await first.getAttribute('name'))!;
    expect(await hydratedHeading(page)).toBe(false);
    await first.click();
    await first.pressSequentially('Ada');
    release();
    await expect.poll(() => hydratedHeading(page)).toBe(true);
    await expect.poll(() => savedAnswer(api, key)).toBe('Ada');
    // taken over, the root no longer says it is the server's drawing, and the field kept what was typed
    await page.locator('#root:not([data-drawn])').waitFor({ state: 'attached' });
    expect(await page.locator(`#${key}`).inputValue()).toBe('Ada');
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  for (const language of ['en', 'es'] as const) {
    for (const id of form.pageOrder) {
      it(`draws ${id} in ${language} on the server, passes axe before any script, and is taken over without a mismatch`, async () => {
        const context = await env.browser.newContext();
        const api = await signedIn(context, language);
        await api.put('/api/answer', { first_name: 'Drawn', gender: 'F' });
        const { page, problems } = await openPage(context);
        const release = await holdScripts(page);
        await page.goto(`${env.server.url}/${id}`, { waitUntil: 'commit' });
        await page.locator('#root[data-drawn] #page-title').waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
        // named as the app names it, before any script (WCAG 2.4.2): the same title once the app runs
        const steps = language === 'es' ? spanishFrame.steps : frame.steps;
        const drawnTitle = `${steps.find((step) => step.path === `/${id}`)!.label} | ${partner.name}`;
        expect(await page.title()).toBe(drawnTitle);
        expect(await axeViolations(page, { strict: true }), `${id} (${language}) before scripts`).toEqual([]);
        // the heading React finds must be the one the server drew: a mismatch would draw the page again
        await page.evaluate(() => ((window as unknown as { drawnHeading: unknown }).drawnHeading = document.getElementById('page-title')));
        release();
        await expect.poll(() => hydratedHeading(page)).toBe(true);
        expect(await page.evaluate(() => document.getElementById('page-title') === (window as unknown as { drawnHeading: unknown }).drawnHeading)).toBe(true);
        expect(await page.title()).toBe(drawnTitle);
        expect(problems.errors, `${id} (${language})`).toEqual([]);
        await context.close();
      });
    }
  }

  it('is told apart from the same page before its style sheet has come', async () => {
    // The browser shows nothing before the style sheet, but a check run on the drawn page could
    // measure it unstyled (small targets): settle(), and so axe, wait until stylesApplied.
    const context = await env.browser.newContext();
    await signedIn(context);
    const { page } = await openPage(context);
    const releaseScripts = await holdScripts(page);
    let releaseStyles!: () => void;
    const stylesReleased = new Promise<void>((resolve) => (releaseStyles = resolve));
    await page.route(/\/assets\/.*\.css$/, async (route) => {
      await stylesReleased;
      await route.continue();
    });
    await page.goto(`${env.server.url}/education-ug`, { waitUntil: 'commit' });
    await page.locator('#root[data-drawn] #page-title').waitFor({ state: 'attached' });
    expect(await page.evaluate(stylesApplied)).toBe(false);
    releaseStyles();
    await expect.poll(() => page.evaluate(stylesApplied)).toBe(true);
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    releaseScripts();
    await context.close();
  });

  it('takes the frame over first, and each section only as the applicant comes to it, on the screen or not', async () => {
    const context = await env.browser.newContext();
    const api = await signedIn(context);
    const { page, problems } = await openPage(context);
    // which sections React had taken over when the frame was (the root's data-drawn removed)
    await page.addInitScript(() => {
      new MutationObserver((changes, observer) => {
        const root = changes[0]!.target as HTMLElement;
        if (root.id !== 'root' || root.hasAttribute('data-drawn')) return;
        observer.disconnect();
        const sections = [...root.querySelectorAll('[data-page] section[data-section]')];
        (window as unknown as { sectionsAtTakeOver: boolean[] }).sectionsAtTakeOver = sections.map((section) => Object.keys(section).some((name) => name.startsWith('__reactFiber')));
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-drawn'] });
    });
    // a phone's pace: the sections are taken over in short tasks after the frame
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`${env.server.url}/about`, { waitUntil: 'commit' });
    await page.locator('#root:not([data-drawn])').waitFor({ state: 'attached' });
    const atTakeOver = await page.evaluate(() => (window as unknown as { sectionsAtTakeOver: boolean[] }).sectionsAtTakeOver);
    expect(atTakeOver.length).toBeGreaterThan(3);
    expect(atTakeOver.every((taken) => !taken)).toBe(true);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    // once the browser is idle React has nothing left to do: every section, the ones on screen too, is still the server's drawing
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    const sections = page.locator('[data-page] section[data-section]');
    // the sections still the server's drawing, and of those the ones with a text field
    const heldSections = () => sections.evaluateAll((found) => found.flatMap((section, index) => (Object.keys(section).some((name) => name.startsWith('__reactFiber')) ? [] : [{ index, typable: Boolean(section.querySelector('input[type="text"]')) }])));
    expect((await heldSections()).map(({ index }) => index)).toEqual(atTakeOver.map((_, index) => index));
    // the pointer over the first section: React's, and only it
    await sections.first().hover();
    await expect.poll(() => takenOver(page, '[data-page] section[data-section]:first-of-type')).toBe(true);
    const held = (await heldSections()).map(({ index }) => index);
    expect(held).toEqual(atTakeOver.slice(1).map((_, index) => index + 1));

    // filled without a key or a click (as the browser's autofill does): reached, and saved
    const filled = lastSectionTextField(page);
    const filledKey = (await filled.getAttribute('name'))!;
    await filled.evaluate((input: HTMLInputElement) => {
      input.value = 'Autofilled';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await expect.poll(() => savedAnswer(api, filledKey)).toBe('Autofilled');
    expect(await filled.inputValue()).toBe('Autofilled');

    // typed into straight away, in a section React has not reached yet
    const stillHeld = (await heldSections()).filter(({ typable }) => typable);
    expect(stillHeld.length).toBeGreaterThan(0);
    const typedSection = sections.nth(stillHeld[0]!.index);
    const typed = typedSection.locator('input[type="text"]').first();
    const typedKey = (await typed.getAttribute('name'))!;
    await typed.click();
    await typed.pressSequentially('Late');
    await expect.poll(() => savedAnswer(api, typedKey)).toBe('Late');
    expect(await typed.inputValue()).toBe('Late');
    expect(await typedSection.evaluate((section) => Object.keys(section).some((name) => name.startsWith('__reactFiber')))).toBe(true);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('shows a letter typed into a section not yet taken over without waiting for React, and saves it once React has it', async () => {
    const context = await env.browser.newContext();
    const api = await signedIn(context);
    const { page, problems } = await openPage(context);
    await page.goto(`${env.server.url}/about`);
    await page.locator('#root:not([data-drawn])').waitFor({ state: 'attached' });
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    const field = lastSectionTextField(page);
    const key = (await field.getAttribute('name'))!;
    const section = page.locator(`[data-page] section[data-section]:has([name="${key}"])`);
    expect(await takenOver(page, `[data-page] section[data-section]:has([name="${key}"])`)).toBe(false);
    // in one task: the field focused and a key pressed in it. React would take the section over
    // within the key's task (the letter shown only after that); it is left to the browser
    const takenWithinTheKey = await field.evaluate((input: HTMLInputElement) => {
      input.focus();
      input.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Q', bubbles: true }));
      input.dispatchEvent(new InputEvent('input', { bubbles: true, data: 'Q', inputType: 'insertText' }));
      return Object.keys(input).some((name) => name.startsWith('__reactFiber'));
    });
    expect(takenWithinTheKey).toBe(false);
    await page.keyboard.type('Quill');
    expect(await field.inputValue()).toBe('Quill');
    // the focus reached the section: React takes it over in its own time, with what was typed
    await expect.poll(() => section.evaluate((element) => Object.keys(element).some((name) => name.startsWith('__reactFiber')))).toBe(true);
    await expect.poll(() => savedAnswer(api, key)).toBe('Quill');
    // and from then on each key is React's as usual
    await page.keyboard.type('s');
    await expect.poll(() => savedAnswer(api, key)).toBe('Quills');
    expect(await field.inputValue()).toBe('Quills');
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('takes a choice tapped in a section on screen that nobody has come to yet, and saves it', async () => {
    // a phone: a tap brings no pointer over the section before it, and the CPU is slow
    const context = await env.browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
    const api = await signedIn(context);
    const { page, problems } = await openPage(context);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`${env.server.url}/about`);
    await page.locator('#root:not([data-drawn])').waitFor({ state: 'attached' });
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    const choice = page.locator('[data-page] input[type="radio"]').nth(1);
    const [key, value] = await choice.evaluate((input: HTMLInputElement) => [input.name, input.value]);
    const section = `section[data-section]:has([name="${key}"])`;
    expect(await page.locator(section).isVisible()).toBe(true);
    expect(await takenOver(page, section)).toBe(false);
    await choice.locator('xpath=..').tap();
    await expect.poll(() => choice.isChecked()).toBe(true);
    expect(await takenOver(page, section)).toBe(true);
    await expect.poll(() => savedAnswer(api, key!)).toBe(value);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('shows at once, in a section not reached yet, what an answer above it changes', async () => {
    const context = await env.browser.newContext();
    const api = await signedIn(context);
    const { page, problems } = await openPage(context);
    await page.goto(`${env.server.url}/about`);
    await page.locator('#root:not([data-drawn])').waitFor({ state: 'attached' });
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    // neither section reached yet; the contact section is drawn without the international number (no country yet)
    expect(await takenOver(page, '#country')).toBe(false);
    expect(await takenOver(page, 'section[data-section="contact"]')).toBe(false);
    expect(await page.locator('#phone_international').count()).toBe(0);
    await page.locator('#country').selectOption('DEU');
    // asked at once, though nobody has scrolled there: the section is taken over as the answer changes
    await page.locator('#phone_international').waitFor({ state: 'attached' });
    expect(await takenOver(page, 'section[data-section="contact"]')).toBe(true);
    await expect.poll(() => savedAnswer(api, 'country')).toBe('DEU');
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('shows the messages of an application being checked in every section, none drawn afresh', async () => {
    const context = await env.browser.newContext();
    const api = await signedIn(context);
    // after a refused submit every page says what it is missing: the messages come once the page is taken over
    await api.post('/api/web-status', { web_status: 'started' });
    await api.post('/api/web-status', { web_status: 'validating' });
    const { page, problems } = await openPage(context);
    await page.goto(`${env.server.url}/about`);
    const sections = page.locator('[data-page] section[data-section]');
    await sections.last().waitFor({ state: 'attached' });
    const drawnCount = await sections.count();
    // the section furthest down, never scrolled to, is kept as drawn and taken over with its messages
    await page.evaluate(() => ((window as unknown as { lastDrawn: unknown }).lastDrawn = document.querySelector('[data-page] section[data-section]:last-of-type')));
    await sections.last().locator('.field-error-block').first().waitFor({ state: 'attached' });
    expect(await sections.count()).toBe(drawnCount);
    expect(await page.evaluate(() => document.querySelector('[data-page] section[data-section]:last-of-type') === (window as unknown as { lastDrawn: unknown }).lastDrawn)).toBe(true);
    expect(await takenOver(page, '[data-page] section[data-section]')).toBe(true);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('takes a drawn page over in a browser without requestIdleCallback (Safari has none)', async () => {
    const context = await env.browser.newContext();
    const api = await signedIn(context);
    const { page, problems } = await openPage(context);
    await page.addInitScript(() => {
      delete (window as { requestIdleCallback?: unknown }).requestIdleCallback;
      delete (window as { cancelIdleCallback?: unknown }).cancelIdleCallback;
    });
    await page.goto(`${env.server.url}/about`);
    await page.locator('#root:not([data-drawn])').waitFor({ state: 'attached' });
    expect(await page.evaluate(() => typeof window.requestIdleCallback)).toBe('undefined');
    await page.locator('[data-page] section[data-section]').first().hover();
    await expect.poll(() => takenOver(page, '[data-page] section[data-section]:first-of-type')).toBe(true);
    const field = lastSectionTextField(page);
    const key = (await field.getAttribute('name'))!;
    await field.fill('Timer');
    await expect.poll(() => savedAnswer(api, key)).toBe('Timer');
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('comes back to an unchanged page from the browser\'s own copy, and to a page whose answers changed anew', async () => {
    const context = await env.browser.newContext();
    const api = await signedIn(context);
    const visit = async () => {
      const { page, problems } = await openPage(context);
      await page.goto(`${env.server.url}/about`);
      await page.locator('#root:not([data-drawn])').waitFor({ state: 'attached' });
      // revalidated (304): only the headers came; else the whole page did
      const fromOwnCopy = await page.evaluate(() => {
        const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
        return entry!.transferSize < entry!.encodedBodySize;
      });
      return { page, problems, fromOwnCopy };
    };
    const first = await visit();
    expect(first.fromOwnCopy).toBe(false);
    const field = first.page.locator('[data-page] input[type="text"]').first();
    const key = (await field.getAttribute('name'))!;
    await field.fill('Ada');
    await expect.poll(() => savedAnswer(api, key)).toBe('Ada');
    await first.page.close();

    const changed = await visit();
    expect(changed.fromOwnCopy).toBe(false);
    expect(await changed.page.locator(`#${key}`).inputValue()).toBe('Ada');
    await changed.page.close();

    const unchanged = await visit();
    expect(unchanged.fromOwnCopy).toBe(true);
    expect(await unchanged.page.locator(`#${key}`).inputValue()).toBe('Ada');
    expect([...first.problems.errors, ...changed.problems.errors, ...unchanged.problems.errors]).toEqual([]);
    await context.close();
  });

  it('logs out while the drawn page still takes its profile from the take-over, and shows it no more', async () => {
    const context = await env.browser.newContext();
    await signedIn(context);
    const { page, problems } = await openPage(context);
    // the browser never idle: the render that drops the profile handed to the take-over never comes
    await page.addInitScript(() => {
      window.requestIdleCallback = () => 0;
    });
    await page.goto(`${env.server.url}/about`);
    await page.locator('#root:not([data-drawn])').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: frame.header.account_button }).click();
    await page.getByRole('button', { name: frame.account_popover.log_out }).click();
    await page.waitForURL(`${env.server.url}/login`);
    await page.locator('.bp6-toast.bp6-intent-success', { hasText: authMessages.logout_success }).waitFor();
    await page.getByRole('heading', { level: 1, name: loginForm.title }).waitFor();
    // signed out in this page as on the server, though the render that drops the take-over's profile never came
    await page.getByRole('button', { name: frame.header.account_button }).click();
    await page.getByRole('link', { name: frame.account_popover.sign_in }).waitFor();
    expect(await page.getByRole('button', { name: frame.account_popover.log_out }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.goBack(); // the form page again, in the same page: welcomed as a visitor
    await page.getByRole('region', { name: frame.welcome.anonymous.title }).waitFor();
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('saves a page without scripts, and shows the server\'s message in the page\'s language', async () => {
    for (const language of ['en', 'es'] as const) {
      const context = await env.browser.newContext({ javaScriptEnabled: false });
      const api = await signedIn(context, language);
      const page = await context.newPage();
      await page.goto(`${env.server.url}/about`);
      const first = page.locator('[data-page] input[type="text"]').first();
      const key = (await first.getAttribute('name'))!;
      await first.fill('Grace');
      await page.locator('button.page-save').click();
      await page.waitForURL(/\/about\?saved$/);
      expect(await savedAnswer(api, key)).toBe('Grace');
      await expect.poll(() => page.locator(`#${key}`).inputValue()).toBe('Grace');
      // the page is not complete yet: the server's list of what needs attention, each a link to its field
      const texts = language === 'es' ? spanishMessages : apiMessages;
      const notice = page.locator('.page-notice');
      expect(await notice.textContent()).toContain(texts.page_problems);
      expect(await notice.locator('a[href^="#"]').count()).toBeGreaterThan(0);
      await context.close();
    }
  });

  it('says in words, without scripts, that a page posted after the application was submitted changed nothing', async () => {
    const context = await env.browser.newContext({ javaScriptEnabled: false });
    const api = await signedIn(context);
    const page = await context.newPage();
    await page.goto(`${env.server.url}/about`); // opened before the application is submitted elsewhere
    expect((await api.put('/api/answer', completeApplication())).status).toBe(200);
    expect((await api.post('/api/submit')).status).toBe(200);
    await page.locator('#middle_name').fill('TooLate');
    await page.locator('button.page-save').click();
    await page.waitForURL(/\/about\?saved=submitted$/);
    expect(await page.locator('.page-notice').textContent()).toContain(apiMessages.submitted);
    expect(await savedAnswer(api, 'middle_name')).not.toBe('TooLate');
    await context.close();
  });
});
