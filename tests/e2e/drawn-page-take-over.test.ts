import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { conditionKeys, type AnswerValue } from '../../src/shared/answers/conditions.ts';
import { optionsFor } from '../../src/shared/answers/option-rules.ts';
import { hiddenKeys } from '../../src/shared/answers/visibility.ts';
import { localDate } from '../../src/shared/dates/local-date.ts';
import { form } from '../../src/shared/form/form-model-data.ts';
import partner from '../../schemas/partner.json';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { openPage, type PageProblems } from '../../support/browser.ts';
import { until } from '../../support/until.ts';
import { makePdf } from '../../support/document-fixtures.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { conversionResult, uploadThroughApi } from '../../support/uploads.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';

/**
 * A page the server drew and the browser takes over, section by section, is the browser's own
 * drawing of the same answers: React keeps every drawn element (a difference would make it draw
 * the section again, and throw away what was typed there), whatever the page shows (open
 * sections, several colleges, both school searches, documents, a tab) and whichever look-up or
 * uploader code the browser has already loaded.
 */

const serverLog: string[] = [];
const env = useServerAndBrowser({ env: { RENDER_WORKERS: '1' }, log: (line) => serverLog.push(line) });
let counter = 0;
type Language = 'en' | 'es';

async function signedIn(context: BrowserContext, api: ApiSession, language: Language): Promise<void> {
  await context.addCookies([
    ...[...api.cookies].map(([name, value]) => ({ name, value, url: env.server.url })),
    { name: 'lang', value: language, url: env.server.url },
  ]);
}

const savedAnswers = async (api: ApiSession) => (await api.get<{ answer: Record<string, unknown> }>('/api/profile')).body.answer;

/** Whether React has taken over the element `selector` finds (it carries React's fiber). */
const takenOver = (page: Page, selector: string) => page.locator(selector).evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactFiber')));

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

/** The name inputs of the school blocks (the school search), found from the pages' uiSchemas. */
const schoolSearchKeys: string[] = form.pageOrder.flatMap((id) => form.pages[id].sections.flatMap((section) => section.blocks))
  .flatMap((block) => ('instances' in block ? block.instances : [block]) as { schema?: unknown; uiSchema?: unknown }[])
  .flatMap((part) => {
    const found: string[] = [];
    const walk = (ui: unknown, schema: { properties?: Record<string, unknown> } | undefined) => {
      if (!ui || typeof ui !== 'object' || !schema?.properties) return;
      const record = ui as Record<string, unknown>;
      if (record['ui:field'] === 'school') found.push(...Object.keys(schema.properties).filter((key) => key.endsWith('_name')));
      for (const [key, value] of Object.entries(record)) if (!key.startsWith('ui:')) walk(value, schema.properties[key] as never);
    };
    walk(part.uiSchema, part.schema as never);
    return found;
  });

/**
 * Answers that open every section a rule can open (each answer a rule reads set to the choice
 * that shows the most), with every question shown answered, two instances of each add-another
 * group among them.
 */
function richAnswers(): Record<string, AnswerValue> {
  const answers: Record<string, AnswerValue> = { ...completeApplication() };
  const optionRules = form.pageOrder.flatMap((id) => form.pages[id].optionRules);
  const hiddenNow = () => new Set(form.pageOrder.flatMap((id) => [...hiddenKeys(form.pages[id], answers)]));
  const controllers = [...new Set(form.pageOrder.flatMap((id) => form.pages[id].visibility).flatMap((rule) => conditionKeys(rule.when)))];
  for (let pass = 0; pass < 3; pass++) {
    for (const key of controllers) {
      const choices: AnswerValue[] = form.fields[key]!.widget === 'checkbox' ? [false, true] : optionsFor(form, key, answers, optionRules).map((item) => item.value);
      let best = answers[key];
      let fewest = Infinity;
      for (const choice of choices) {
        answers[key] = choice;
        const count = hiddenNow().size;
        if (count < fewest) [best, fewest] = [choice, count];
      }
      answers[key] = best!;
    }
  }
  const beyondTwo = new Set(form.pageOrder.flatMap((id) => form.pages[id].repeaters).flatMap((repeater) => repeater.instances.slice(2).flat()));
  const hidden = hiddenNow();
  const today = localDate(new Date(), partner.time_zone);
  let index = 0;
  for (const [key, field] of Object.entries(form.fields)) {
    if (hidden.has(key) || beyondTwo.has(key) || (answers[key] !== undefined && answers[key] !== '')) continue;
    index++;
    const first = optionsFor(form, key, answers, optionRules)[0]?.value;
    const values: Record<string, AnswerValue | undefined> = {
      radio: first, select: first, checkbox: true, date: today, zipLookup: '62701', postalCode: '62701', phone: '2125551234',
      internationalPhone: '+442079460958', email: `rich${index}@example.org`,
    };
    const value = schoolSearchKeys.includes(key) ? `School ${index}` : field.widget in values ? values[field.widget] : field.widget === 'file' ? undefined : `Ñ${index}`;
    if (value !== undefined) answers[key] = value;
  }
  return answers;
}

/** A richly answered application: every section open, two of everything that repeats, both school searches, a document in each question. */
async function richApplicant(): Promise<ApiSession> {
  const api = await createConfirmedApplicant(env.server.app, `rich${++counter}@example.org`);
  const saved = await api.put('/api/answer', richAnswers());
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  for (const repeater of form.pageOrder.flatMap((id) => form.pages[id].repeaters)) {
    expect((await api.put('/api/add-another', { button_id: repeater.button_id, num_components: 2 })).status).toBe(200);
  }
  const documents = Object.values(form.fields).filter((field) => field.widget === 'file').map((field) => field.key);
  for (const key of documents) {
    await uploadThroughApi(env.server.app, api, key, `${key}.pdf`, await makePdf([key]));
    expect((await conversionResult(api, key)).status).toBe('COMPLETED');
  }
  return api;
}

/** Every lazy part of the page has arrived: each school search is the look-up, each document question its uploader. */
const lazyPartsArrived = (page: Page, scope: string) => page.evaluate(({ scope: selector, searches }) => {
  const root = document.querySelector(selector);
  if (!root) return false;
  const searchesReady = searches.every((key) => {
    const input = root.querySelector(`input[name="${key}"]`);
    return !input || input.getAttribute('role') === 'combobox';
  });
  return searchesReady && !root.querySelector('[data-document-phase="loading"]');
}, { scope, searches: schoolSearchKeys });

/**
 * Each section's markup, written out the same way whoever made it: attributes in name order
 * (the order an element's attributes were set in says nothing), text as it reads.
 */
const sectionsMarkup = (page: Page) => page.locator('#root').evaluate((root) => {
  const write = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    const element = node as Element;
    const attributes = [...element.attributes].map(({ name, value }) => `${name}="${value}"`).sort().join(' ');
    return `<${element.localName}${attributes ? ` ${attributes}` : ''}>${[...element.childNodes].map(write).join('')}</${element.localName}>`;
  };
  return [...root.querySelectorAll<HTMLElement>('[data-page] section[data-section]')].map((section) => ({ section: section.dataset.section!, html: write(section) }));
});

/** Where two drawings first differ, with a little of each around it. */
function firstDifference(a: string, b: string): string | undefined {
  if (a === b) return undefined;
  let at = 0;
  while (a[at] === b[at]) at++;
  return `at ${at}:\n  server+take-over: …${a.slice(Math.max(0, at - 120), at + 120)}…\n  browser alone:    …${b.slice(Math.max(0, at - 120), at + 120)}…`;
}

/**
 * The page drawn by the server and taken over section by section, in reading order, each
 * section's look-ups and uploaders arrived before the next is reached (so a later section meets
 * code an earlier one loaded). Every drawn section and field is still the one the server drew.
 */
async function drawnAndTakenOver(context: BrowserContext, path: string): Promise<{ page: Page; problems: PageProblems }> {
  const { page, problems } = await openPage(context);
  const release = await holdScripts(page);
  await page.goto(`${env.server.url}${path}`, { waitUntil: 'commit' });
  await page.locator('#root[data-drawn] [data-page] section[data-section]').last().waitFor({ state: 'attached' });
  await page.evaluate(() => {
    (window as unknown as { drawnNodes: Element[] }).drawnNodes = [...document.querySelectorAll('#root [data-page] section[data-section], #root [data-page] [name]')];
  });
  release();
  await page.locator('#root:not([data-drawn])').waitFor({ state: 'attached' });
  const sections = page.locator('[data-page] section[data-section]');
  const count = await sections.count();
  for (let index = 0; index < count; index++) {
    const selector = `[data-page] section[data-section]:nth-of-type(${index + 1})`;
    await page.locator(selector).dispatchEvent('pointerover');
    await expect.poll(() => takenOver(page, selector)).toBe(true);
    await expect.poll(() => lazyPartsArrived(page, selector)).toBe(true);
  }
  // the school searches alone are drawn anew, as the look-up replaces the text field it was drawn as
  const replaced = await page.evaluate((searches) => (window as unknown as { drawnNodes: Element[] }).drawnNodes
    .filter((node) => !node.isConnected && !searches.includes(node.getAttribute('name') ?? ''))
    .map((node) => node.getAttribute('name') ?? `section ${node.getAttribute('data-section')}`), schoolSearchKeys);
  expect(replaced, `${path}: drawn elements React replaced`).toEqual([]);
  return { page, problems };
}

/** The same page drawn by the browser alone (the server's drawing taken out of the page as it arrives). */
async function drawnByBrowserAlone(context: BrowserContext, path: string): Promise<{ page: Page; problems: PageProblems }> {
  const { page, problems } = await openPage(context);
  await page.route(`${env.server.url}${path}`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace('<div id="root" data-drawn="">', '<div id="root">');
    await route.fulfill({ response, body: html });
  });
  await page.goto(`${env.server.url}${path}`);
  await page.locator('#root [data-page] section[data-section]').last().waitFor({ state: 'attached' });
  await expect.poll(() => lazyPartsArrived(page, '#root')).toBe(true);
  return { page, problems };
}

describe('a page the server drew, taken over by the browser', () => {
  for (const language of ['en', 'es'] as const) {
    it(`keeps what a returning applicant types at once into each of the two school searches (${language})`, async () => {
      const api = await createConfirmedApplicant(env.server.app, `searches${++counter}@example.org`);
      await api.put('/api/answer', { home_schooled: 'N', college_univ_attended: 'Y' });
      await api.put('/api/last-page', { last_page: '/education-ug' });
      const context = await env.browser.newContext();
      await signedIn(context, api, language);
      const { page, problems } = await openPage(context);
      await page.goto(`${env.server.url}/education-ug`);
      await page.locator('#root:not([data-drawn])').waitFor({ state: 'attached' });
      // one search, then the other: the second section is taken over after the first has loaded the look-up;
      // a search keeps the text typed when it is left
      await page.locator('#hs_name').click();
      await page.keyboard.type('Central');
      await page.locator('#hs_name[role="combobox"]').waitFor();
      // a slow phone, typing at once: the college field is replaced by the look-up (loaded for the
      // high school) while its first keys are still on their way to the answer
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.locator('#college_name').click();
      await page.keyboard.type('State College');
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      // the take-over may land during the typing or just after it: what was typed survives it either way
      await page.locator('#college_name[role="combobox"]').waitFor();
      expect(await page.locator('#college_name').inputValue()).toBe('State College');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('college_name');
      await page.keyboard.press('Tab');
      await expect.poll(async () => (await savedAnswers(api)).college_name).toBe('State College');
      expect((await savedAnswers(api)).hs_name).toBe('Central');
      expect(await page.locator('#college_name').inputValue()).toBe('State College');
      expect(await page.locator('#hs_name').inputValue()).toBe('Central');
      expect(problems.errors).toEqual([]);
      await context.close();
    });

    it(`draws every page of a richly answered application as the browser alone draws it (${language})`, async () => {
      const api = await richApplicant();
      const visits: { path: string; tab?: string }[] = form.pageOrder.flatMap((id) => {
        const tabs = form.pages[id].tabs;
        // each tab of a group drawn chosen once
        return tabs.length ? tabs[0]!.tabs.map((tab) => ({ path: `/${id}`, tab: tab.id })) : [{ path: `/${id}` }];
      });
      for (const { path, tab } of visits) {
        const group = form.pages[path.slice(1) as keyof typeof form.pages].tabs[0];
        if (tab && group) expect((await api.put('/api/tabs', { tab_id: group.tab_id, chosen_tab: tab })).status).toBe(200);
        // the page the applicant was last on: a returning applicant is taken back to it
        await api.put('/api/last-page', { last_page: path });
        const context = await env.browser.newContext();
        await signedIn(context, api, language);
        const drawn = await drawnAndTakenOver(context, path);
        const alone = await drawnByBrowserAlone(context, path);
        const [drawnSections, aloneSections] = [await sectionsMarkup(drawn.page), await sectionsMarkup(alone.page)];
        expect(drawnSections.map(({ section }) => section)).toEqual(aloneSections.map(({ section }) => section));
        for (const [index, { section, html }] of drawnSections.entries()) {
          expect(firstDifference(html, aloneSections[index]!.html), `${path}${tab ? ` (${tab})` : ''} ${section}`).toBeUndefined();
        }
        expect([...drawn.problems.errors, ...alone.problems.errors], `${path}${tab ? ` (${tab})` : ''}`).toEqual([]);
        await context.close();
      }
      expect(serverLog.filter((line) => line.includes('pageProblem'))).toEqual([]);
    });
  }

  it('keeps what was typed into sections the browser had to draw afresh, and tells the server\'s log', async () => {
    const api = await createConfirmedApplicant(env.server.app, `afresh${++counter}@example.org`);
    await api.put('/api/last-page', { last_page: '/about' });
    const context = await env.browser.newContext();
    await signedIn(context, api, 'en');
    const { page, problems } = await openPage(context, { expectedErrors: [/Minified React error #4(18|25)/] });
    // a drawing that differs from the browser's: two sections' headings say something else
    const [filled, focused] = form.pages.about.sections;
    await page.route(`${env.server.url}/about`, async (route) => {
      const response = await route.fetch();
      let html = await response.text();
      for (const section of [filled!, focused!]) {
        const at = html.indexOf(`data-section="${section.id}"`);
        expect(at).toBeGreaterThan(0);
        html = html.slice(0, at) + html.slice(at).replace(`>${section.title}<`, '>Drawn differently<');
      }
      await route.fulfill({ response, body: html });
    });
    await page.goto(`${env.server.url}/about`);
    await page.locator('#root:not([data-drawn])').waitFor({ state: 'attached' });
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    const drawn = (id: string) => `[data-page] section[data-section="${id}"]`;
    expect(await takenOver(page, drawn(filled!.id))).toBe(false);
    expect(await takenOver(page, drawn(focused!.id))).toBe(false);
    await page.evaluate((selectors) => {
      (window as unknown as { drawnSections: Element[] }).drawnSections = selectors.map((selector) => document.querySelector(selector)!);
    }, [drawn(filled!.id), drawn(focused!.id)]);
    const stillDrawn = (index: number) => page.evaluate((at) => (window as unknown as { drawnSections: Element[] }).drawnSections[at]!.isConnected, index);

    // filled into the drawing (as the browser's autofill does): React takes the section over after, cannot, and draws it afresh
    const filledField = page.locator(`${drawn(filled!.id)} input[type="text"]`).first();
    const filledKey = (await filledField.getAttribute('name'))!;
    await filledField.evaluate((input: HTMLInputElement) => {
      input.value = 'Ada';
      input.dispatchEvent(new InputEvent('input', { bubbles: true, data: 'Ada', inputType: 'insertText' }));
    });
    await expect.poll(() => stillDrawn(0)).toBe(false);
    await expect.poll(async () => (await savedAnswers(api))[filledKey]).toBe('Ada');
    expect(await page.locator(`#${filledKey}`).inputValue()).toBe('Ada');

    // clicked into: React takes the section over in the click, cannot, and draws it afresh; the field drawn
    // in place of the one clicked has the focus, so what is typed next goes in
    const focusedField = page.locator(`${drawn(focused!.id)} input[type="text"]`).first();
    const focusedKey = (await focusedField.getAttribute('name'))!;
    await focusedField.click();
    await expect.poll(() => stillDrawn(1)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(focusedKey);
    await page.keyboard.type('12 Kept Lane');
    await expect.poll(async () => (await savedAnswers(api))[focusedKey]).toBe('12 Kept Lane');

    // each in the server's log, with React's error, no answer in it
    const reports = () => serverLog.map((line) => (JSON.parse(line) as { pageProblem?: Record<string, string> }).pageProblem).filter(Boolean);
    await until(async () => (reports().filter((report) => report!.problem === 'section-drawn-afresh').length >= 2 ? true : undefined), 'both sections reported');
    expect(reports().filter((report) => report!.problem === 'section-drawn-afresh')).toEqual([
      { problem: 'section-drawn-afresh', page: '/about', section: filled!.id, language: 'en' },
      { problem: 'section-drawn-afresh', page: '/about', section: focused!.id, language: 'en' },
    ]);
    await until(async () => reports().find((report) => report!.problem === 'hydration-error'), 'React\'s error, reported');
    expect(serverLog.some((line) => line.includes('Ada') || line.includes('Kept Lane'))).toBe(false);
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});
