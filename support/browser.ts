import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, driven by playwright-core (never a downloaded browser). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium headless shell: the same engine and version without the browser's
 * windows, views and profile services, about half the CPU a context (docs/testing.md). The
 * end-to-end tests drive it where what they check is the page (its DOM, its accessibility
 * tree, its requests, its pixels as the engine draws them); `TEST_BROWSER=full` runs them
 * in the full browser instead.
 */
export const HEADLESS_SHELL_PATH = process.env.HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';

/**
 * A switch Chromium ignores, which names the tests' own browser on its command line: a test
 * that inspects the server's printing Chromium among its processes leaves this one out (it
 * runs unsandboxed, and a worker's files share it).
 */
export const TEST_BROWSER_SWITCH = '--admission-test-browser';

const SWITCHES = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu', '--no-first-run'];

/**
 * Browser UI that no test can see. The full browser gives each new context (a profile of its
 * own) a window whose address bar keeps its suggestion popups as two web pages in a renderer of
 * their own; turned off, a context with the login page costs about 0.8 s less CPU (1.1 s, not
 * 1.9), and a test opens a context for each applicant. The page under test is drawn as before.
 */
export const UNSEEN_BROWSER_UI = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** The tests' browser (and the benchmarks'): `args` are switches of the caller's own; `executablePath` another Chromium. */
export async function launchBrowser({ args = [], executablePath = CHROMIUM_PATH }: { args?: string[]; executablePath?: string } = {}): Promise<Browser> {
  // Chromium honours only the last --disable-features switch, so the list is Playwright's own
  // with ours added, given once in its place
  const playwrightFeatures = await playwrightDisabledFeatures();
  return chromium.launch({
    executablePath,
    headless: true,
    ignoreDefaultArgs: [playwrightFeatures],
    args: [...SWITCHES, TEST_BROWSER_SWITCH, `${playwrightFeatures},${UNSEEN_BROWSER_UI.join(',')}`, ...args],
  });
}

let defaultFeatures: Promise<string> | undefined;

/**
 * The --disable-features switch Playwright gives Chromium (its list is internal and changes with
 * its versions), read off the command line of a browser launched once per process to learn it.
 */
export function playwrightDisabledFeatures(): Promise<string> {
  defaultFeatures ??= (async () => {
    const marker = `${TEST_BROWSER_SWITCH}-learning-${process.pid}-${Date.now()}`;
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...SWITCHES, marker] });
    try {
      const features = browserCommandLines(marker)[0]?.argv.find((argument) => argument.startsWith('--disable-features='));
      if (!features) throw new Error('the tests\' browser: Playwright\'s --disable-features switch was not found on the command line of the browser it launched');
      return features;
    } finally {
      await browser.close();
    }
  })();
  defaultFeatures.catch(() => { defaultFeatures = undefined; });
  return defaultFeatures;
}

/** The browser processes (not their helpers) launched with `marker`, with their command lines. */
export function browserCommandLines(marker = TEST_BROWSER_SWITCH): { pid: number; argv: string[] }[] {
  const found: { pid: number; argv: string[] }[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // ended meanwhile
    }
    if (argv.includes(marker) && !argv.some((argument) => argument.startsWith('--type='))) found.push({ pid: Number(pid), argv });
  }
  return found;
}

export interface PageProblems {
  /** console errors, page errors and Content-Security-Policy violations */
  errors: string[];
}

/**
 * A page that records every console error, uncaught error and CSP violation, so a test
 * can assert the app runs cleanly under its Content-Security-Policy.
 */
export async function openPage(context: BrowserContext, options: { expectedErrors?: RegExp[] } = {}): Promise<{ page: Page; problems: PageProblems }> {
  const page = await context.newPage();
  // a bound on waiting for a state, not a speed target: a busy machine may take its time
  page.setDefaultTimeout(30_000);
  const problems: PageProblems = { errors: [] };
  const expected = options.expectedErrors ?? [/Failed to load resource: the server responded with a status of (400|401|403|404|409|415|422|429)/, /failed with (400|401|403|404|409|415|422|429)/];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (!expected.some((pattern) => pattern.test(text))) problems.errors.push(`console: ${text}`);
  });
  page.on('pageerror', (error) => problems.errors.push(`pageerror: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return { page, problems };
}

const screenshotDir = resolve(import.meta.dirname, '..', 'test-results', 'screenshots');

/** Saves a full-page screenshot (or what the window shows: a dialog) under test-results/screenshots for a person to look at. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  await settle(page);
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  return path;
}

/**
 * Waits for the page as the applicant sees it: its style sheets applied and no CSS transition
 * or animation running (dialogs fade in). The browser shows nothing until the style sheets
 * have come, but a script may measure the page before (a test that holds the scripts back
 * sees the drawn page at once), and would find it unstyled: targets small, colours default.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(stylesApplied);
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
}

/** In the page: whether every style sheet it links to has come (a sheet on its way has none yet). */
export function stylesApplied(): boolean {
  return [...document.querySelectorAll<HTMLLinkElement>('link[rel~="stylesheet"]')].every((link) => link.sheet !== null);
}
