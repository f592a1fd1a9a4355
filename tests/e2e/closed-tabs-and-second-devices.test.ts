import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import frame from '../../schemas/text/frame.json';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { fillAnswers } from '../helpers/form-filler.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

/**
 * A page never acts on a view that is no longer true, and never says "saved" when it is not:
 * answers typed offline in a tab that is then closed are saved by the account's next page;
 * closing while anything is unacknowledged asks first; a second device (a browser context
 * of its own) opened earlier neither lowers a list's count nor writes over an answer it
 * showed empty, and shows the other device's answers when it comes back into view. Read
 * back through the API on both databases.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
});

const offlineErrors = [/Failed to load resource/, /failed with/, /ERR_INTERNET_DISCONNECTED/, /ERR_CONNECTION_REFUSED/];

describe.each(databaseTargets())('closed tabs and second devices, on $name', (target) => {
  let server: TestServer;
  let counter = 0;

  beforeAll(async () => {
    server = await startTestServerOn(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function account(): Promise<ApiSession> {
    return createConfirmedApplicant(server.app, `views${++counter}.${target.name}@example.org`);
  }

  /** A device of the applicant: a browser of its own (its own storage), signed in. */
  async function device(api: ApiSession): Promise<BrowserContext> {
    const context = await browser.newContext();
    await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
    return context;
  }

  async function pageOf(context: BrowserContext, path: string): Promise<Page> {
    const { page } = await openPage(context, { expectedErrors: offlineErrors });
    await page.goto(`${server.url}${path}`);
    await page.locator(`#root:not([data-drawn]) [data-page="${path.slice(1)}"]`).waitFor();
    return page;
  }

  const saved = (page: Page) => page.locator('[data-save-state="saved"]').waitFor();
  const stored = async (api: ApiSession) => (await api.get<{ answer: Record<string, unknown>; answer_clock: Record<string, number> }>('/api/profile')).body;
  const counts = async (api: ApiSession) => (await api.get<Record<string, number>>('/api/add-another')).body;
  /** What the page keeps in localStorage, as anyone at this computer could read it. */
  const keptInBrowser = (page: Page) => page.evaluate(() => JSON.stringify(Object.entries(localStorage)));

  it('saves what was typed offline in a tab that was then closed, from the next page opened online, before saying saved', async () => {
    const api = await account();
    const laptop = await device(api);
    const page = await pageOf(laptop, '/about');
    await saved(page);
    await laptop.setOffline(true);
    await fillAnswers(page, { last_name: 'Lovelace', city: 'Offline Falls' });
    await page.locator('[data-save-state="offline"]').waitFor();
    expect(await page.locator('[data-save-state]').textContent()).toContain(frame.save_status.offline);
    // kept for the account, encrypted: nothing a next person at this computer could read
    await expect.poll(() => keptInBrowser(page)).toContain('app:unsaved:');
    expect(await keptInBrowser(page)).not.toMatch(/Lovelace|Offline Falls|views\d/);
    expect((await stored(api)).answer.last_name).toBeUndefined();
    // closed (or killed) while offline. What a closing page hands the browser to send (fetch
    // keepalive) cannot leave an offline machine; DevTools' offline emulation belongs to the
    // page, though, and a busy machine may send it once the page is gone. Either way the
    // record kept for the account stays until a page's save of it is acknowledged, below.
    await page.close();

    await laptop.setOffline(false);
    const later = await pageOf(laptop, '/about');
    await saved(later);
    // "saved" came only once the leftover was acknowledged
    expect((await stored(api)).answer).toMatchObject({ last_name: 'Lovelace', city: 'Offline Falls' });
    await expect.poll(() => later.locator('#last_name').inputValue()).toBe('Lovelace');
    await expect.poll(() => keptInBrowser(later)).not.toContain('app:unsaved:');
    await laptop.close();
  });

  it('asks before a tab is closed while answers are not yet saved, and not once they are', async () => {
    const api = await account();
    const laptop = await device(api);
    const page = await pageOf(laptop, '/about');
    await saved(page);
    await laptop.setOffline(true);
    await page.locator('#first_name').pressSequentially('Ada'); // typed: the page has the applicant's activation
    await page.locator('[data-save-state="offline"]').waitFor();
    const asked = new Promise<string>((resolve) => page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.dismiss(); // "Stay on page"
    }));
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    expect(page.isClosed()).toBe(false);

    await laptop.setOffline(false);
    await saved(page);
    let askedAgain = false;
    page.on('dialog', (dialog) => {
      askedAgain = true;
      void dialog.accept();
    });
    const closed = new Promise<void>((resolve) => page.once('close', () => resolve()));
    await page.close({ runBeforeUnload: true });
    await closed;
    expect(askedAgain).toBe(false);
    expect((await stored(api)).answer.first_name).toBe('Ada');
    await laptop.close();
  });

  it('sends a leftover once though two tabs open at once, and a repeat of it changes nothing', async () => {
    const api = await account();
    const laptop = await device(api);
    const page = await pageOf(laptop, '/about');
    await saved(page);
    await laptop.setOffline(true);
    await fillAnswers(page, { middle_name: 'Byron' });
    await page.locator('[data-save-state="offline"]').waitFor();
    await page.close();
    await laptop.setOffline(false);

    const sends: { writer: string; clock: number }[] = [];
    await laptop.route('**/api/answer', async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}') as { middle_name?: string; _writer: string; _clock: Record<string, number> };
      if (body.middle_name !== undefined) sends.push({ writer: body._writer, clock: body._clock.middle_name! });
      await route.continue();
    });
    const [one, two] = await Promise.all([pageOf(laptop, '/about'), pageOf(laptop, '/about')]);
    await Promise.all([saved(one), saved(two)]);
    // one page took the leftover (the other found it taken: its page's lock), sent as the page that typed it
    expect(sends).toHaveLength(1);
    const after = await stored(api);
    expect(after.answer.middle_name).toBe('Byron');
    expect(after.answer_clock.middle_name).toBe(sends[0]!.clock);

    // the same leftover sent again (a browser without Web Locks would): nothing changes
    const repeat = await api.put<{ saved: number; stale: Record<string, unknown> }>('/api/answer', {
      middle_name: 'Byron', _clock: { middle_name: sends[0]!.clock }, _seen: { middle_name: 0 }, _writer: sends[0]!.writer,
    });
    expect(repeat.body.stale).toEqual({});
    expect(await stored(api)).toEqual(after);
    await laptop.close();
  });

  it('keeps every honor when a phone opened earlier presses "Add another", and shows the laptop\'s list first', async () => {
    const api = await account();
    const phone = await device(api);
    const phonePage = await pageOf(phone, '/education-ug');
    await saved(phonePage);

    const laptop = await device(api);
    const laptopPage = await pageOf(laptop, '/education-ug');
    await laptopPage.getByRole('button', { name: 'Add another honor or award' }).click();
    await laptopPage.locator('#honors_2_name').waitFor();
    await laptopPage.getByRole('button', { name: 'Add another honor or award' }).click();
    await laptopPage.locator('#honors_3_name').waitFor();
    await fillAnswers(laptopPage, { honors_name: 'Honor Roll', honors_2_name: 'Eagle Scout', honors_3_name: 'National Merit' });
    await saved(laptopPage);
    expect((await counts(api)).add_honor).toBe(3);

    // the phone still shows one honor; its press is judged on that, and refused
    await phonePage.getByRole('button', { name: 'Add another honor or award' }).click();
    await phonePage.locator('.bp6-toast', { hasText: frame.changed_elsewhere.list_title }).waitFor();
    await expect.poll(() => phonePage.locator('#honors_3_name').inputValue()).toBe('National Merit');
    expect(await phonePage.locator('#honors_2_name').inputValue()).toBe('Eagle Scout');
    expect((await counts(api)).add_honor).toBe(3);
    // now it has seen the list, the same press adds a fourth
    await phonePage.getByRole('button', { name: 'Add another honor or award' }).click();
    await phonePage.locator('#honors_4_name').waitFor();
    await expect.poll(async () => (await counts(api)).add_honor).toBe(4);

    // the laptop, reloaded, shows all three names and the fourth item
    await laptopPage.reload();
    await laptopPage.locator('#honors_4_name').waitFor();
    expect(await laptopPage.locator('#honors_3_name').inputValue()).toBe('National Merit');
    expect((await stored(api)).answer).toMatchObject({ honors_name: 'Honor Roll', honors_2_name: 'Eagle Scout', honors_3_name: 'National Merit' });
    await phone.close();
    await laptop.close();
  });

  it('never writes over an answer a phone showed empty: it shows the laptop\'s answer and says what was not saved', async () => {
    const api = await account();
    const phone = await device(api);
    const phonePage = await pageOf(phone, '/about');
    await saved(phonePage);
    const laptop = await device(api);
    const laptopPage = await pageOf(laptop, '/about');
    await fillAnswers(laptopPage, { maid_name: 'Eagle' });
    await saved(laptopPage);

    await fillAnswers(phonePage, { maid_name: 'Debate' });
    const toast = phonePage.locator('.bp6-toast', { hasText: frame.changed_elsewhere.overruled_title });
    await toast.waitFor();
    expect(await toast.textContent()).toContain('“Debate”');
    await expect.poll(() => phonePage.locator('#maid_name').inputValue()).toBe('Eagle');
    await screenshot(phonePage, `answer-overruled-by-another-device-${target.name}`, { fullPage: false });
    await saved(phonePage);
    expect((await stored(api)).answer.maid_name).toBe('Eagle');

    // having been shown it, the applicant may knowingly change it
    await fillAnswers(phonePage, { maid_name: 'Eagle Scout' });
    await saved(phonePage);
    await expect.poll(async () => (await stored(api)).answer.maid_name).toBe('Eagle Scout');
    await phone.close();
    await laptop.close();
  });

  it('shows what the other device saved when the page comes back into view, before anything is typed over it', async () => {
    const api = await account();
    const phone = await device(api);
    const phonePage = await pageOf(phone, '/about');
    await saved(phonePage);
    const laptop = await device(api);
    const laptopPage = await pageOf(laptop, '/about');
    await fillAnswers(laptopPage, { last_name: 'Lovelace' });
    await saved(laptopPage);

    // the phone is picked up again
    await phonePage.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => phonePage.locator('#last_name').inputValue()).toBe('Lovelace');
    await phonePage.locator('.bp6-toast', { hasText: frame.changed_elsewhere.refreshed_title }).waitFor();
    await phone.close();
    await laptop.close();
  });
});
