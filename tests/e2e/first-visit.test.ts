import { describe, expect, it } from 'vitest';
import esFrame from '../../schemas/i18n/es/text/frame.json';
import frame from '../../schemas/text/frame.json';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { openPage } from '../../support/browser.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';

/**
 * The first visit, in Chromium against the built client: every script arrives
 * brotli-compressed from the files the build wrote, and a signed-in applicant's profile
 * reads start from the HTML, and the profile gate takes the preloaded answers instead of asking again.
 * Each language's visitor loads that language's build: its texts and none of another's.
 */

const env = useServerAndBrowser();

describe('the first visit', () => {
  it('loads every script precompressed, and a signed-in applicant\'s profile is read once, from the HTML\'s preloads', async () => {
    const api = await createConfirmedApplicant(env.server.app, 'first-visit@example.edu');
    const context = await env.browser.newContext();
    await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: env.server.url })));
    const { page, problems } = await openPage(context);
    const reads: { path: string; by: string }[] = [];
    const encodings = new Map<string, string | undefined>();
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      // a <link rel=preload> shows as 'other', the client's fetch() as 'fetch'
      if (pathname.startsWith('/api/')) reads.push({ path: pathname, by: request.resourceType() });
    });
    page.on('response', (response) => {
      if (response.url().endsWith('.js')) encodings.set(response.url(), response.headers()['content-encoding']);
    });

    // the page's last write of its start (after the loader and the header's hooks have run)
    const started = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/last-page');
    await page.goto(`${env.server.url}/about`);
    await page.getByRole('heading', { level: 1, name: 'About You' }).waitFor();
    await page.locator('[data-welcome-state]:not([data-welcome-state="anonymous"])').waitFor();
    await started;

    // the profile gate reads the three at once: each was started by the HTML and the gate took its answer
    for (const path of ['/api/profile', '/api/add-another', '/api/tabs']) {
      expect(reads.find((read) => read.path === path)?.by, path).toBe('other');
    }
    // and nothing reads them again: the header's hooks wait for the loader's requests (SWR preload)
    for (const path of ['/api/profile', '/api/add-another', '/api/tabs']) expect(reads.filter((read) => read.path === path), path).toHaveLength(1);
    expect(encodings.size).toBeGreaterThan(0);
    expect([...encodings].filter(([, encoding]) => encoding !== 'br')).toEqual([]);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('loads the account popover only when the visitor reaches for the button, and opens it on the first press', async () => {
    const context = await env.browser.newContext();
    const { page, problems } = await openPage(context);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const popoverScript = () => scripts.filter((path) => path.includes('AccountPopoverMenu'));
    await page.goto(`${env.server.url}/about`);
    await page.getByRole('heading', { level: 1, name: 'About You' }).waitFor();
    const button = page.getByRole('button', { name: frame.header.account_button });
    expect(await button.getAttribute('aria-haspopup')).toBe('dialog');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(popoverScript()).toEqual([]);

    const loaded = page.waitForResponse((response) => response.url().includes('AccountPopoverMenu'));
    await button.hover();
    await loaded;
    await button.click();
    await page.getByRole('dialog', { name: frame.account_popover.title }).waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(popoverScript()).toHaveLength(1);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('loads the texts of the visitor\'s language only, from its own build, and the chunks without texts from one place', async () => {
    // texts a first visit of the about page shows or may show, in each language (the frame's and the form model's)
    const texts = {
      en: [frame.skip_link, frame.welcome.anonymous.body, frame.privacy_dialog.title, 'Personal Information'],
      es: [esFrame.skip_link, esFrame.welcome.anonymous.body, esFrame.privacy_dialog.title, 'Información personal'],
    };
    const scripts = { en: new Set<string>(), es: new Set<string>() };
    for (const [language, other] of [['es', 'en'], ['en', 'es']] as const) {
      const context = await env.browser.newContext({ extraHTTPHeaders: { 'accept-language': language } });
      const { page, problems } = await openPage(context);
      page.on('response', (response) => {
        if (response.url().endsWith('.js')) scripts[language].add(new URL(response.url()).pathname);
      });
      await page.goto(`${env.server.url}/about`);
      await page.getByRole('heading', { level: 1, name: (language === 'es' ? esFrame : frame).steps[0]!.label }).waitFor();
      const code = (await Promise.all([...scripts[language]].map(async (path) => (await fetch(`${env.server.url}${path}`)).text()))).join('\n');
      for (const text of texts[language]) expect(code, `${language} visit: ${text}`).toContain(text);
      for (const text of texts[other]) expect(code, `${language} visit: ${text}`).not.toContain(text);
      expect(problems.errors).toEqual([]);
      await context.close();
    }
    // React and the other chunks without texts are the same files in both builds: a change of language keeps them cached
    const shared = [...scripts.es].filter((path) => scripts.en.has(path));
    expect(shared.some((path) => /\/react-[\w-]+\.js$/.test(path)), shared.join(' ')).toBe(true);
  });
});
