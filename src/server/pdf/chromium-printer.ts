import type { Browser, BrowserContext, Page } from 'playwright-core';
import { childEnvironment } from '../documents/child-environment.ts';
import { libreOfficeSandbox } from '../documents/libreoffice.ts';
import { unprivilegedChromium } from './chromium-launcher.ts';

export class PrinterMissingError extends Error {}

/**
 * A warm headless Chromium that prints pages to PDF. Launched on first use and reused
 * (a cold launch costs more than a print); each job gets a fresh context, so nothing
 * carries from one applicant to the next. The next job's context (its guards and an empty
 * page) is made as soon as a job ends, so a job starts with a page at hand.
 *
 * It prints our own pages only: every request of a print context (pages, frames, pictures,
 * fetch, websockets, pings) to another origin than the pages' is aborted before it leaves,
 * and service workers, which could answer requests past that check, are blocked. Chromium's
 * sandbox is on; a server running as root starts it as an unprivileged user, for Chromium
 * refuses its sandbox as root.
 */
const ARGS = [
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu', '--no-first-run',
  // what leaves without a request the route in print() could stop: DNS prefetching, WebRTC's UDP
  '--dns-prefetch-disable', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

const MARGIN = '0.5in';

export interface PrintOptions {
  /**
   * The addresses are routes of one single-page app: the first is loaded, each next one
   * reached by the app's own navigation (history.pushState and popstate), so the app's
   * code and data are loaded once, not once per page. readySelector must then name
   * something only that page shows.
   */
  inApp?: boolean;
}

/** A print context with its guards in place and an empty page, for pages of these origins. */
interface Ready {
  origins: string;
  context: BrowserContext;
  page: Page;
}

export class ChromiumPrinter {
  private browser: Promise<Browser> | undefined;
  private spare: Promise<Ready | undefined> | undefined;
  private unsandboxed = false;

  constructor(private readonly executablePath: string | undefined) {}

  private launch(): Promise<Browser> {
    if (!this.executablePath) throw new PrinterMissingError('Chromium is not installed: apt-get install chromium-headless-shell');
    this.browser ??= this.open().then((browser) => {
      browser.on('disconnected', () => (this.browser = undefined));
      return browser;
    }, (error: unknown) => {
      this.browser = undefined;
      throw error;
    });
    return this.browser;
  }

  /**
   * With Chromium's sandbox: as root, Chromium runs as the converters' unprivileged user
   * (it refuses its sandbox as root). Where the machine cannot give it one (no user
   * namespaces, no such user), without, said once.
   */
  private async open(): Promise<Browser> {
    // loaded at the first print, not with the server: it is half a second of a start, which
    // every server start and every office command would pay without ever printing
    const { chromium } = await import('playwright-core');
    // only what it needs to run: none of the server's secrets (DATABASE_URL, SMTP_URL, DATA_DIR, S3 keys)
    const launch = (executablePath: string, sandbox: boolean) => chromium.launch({ executablePath, headless: true, chromiumSandbox: sandbox, args: ARGS, env: childEnvironment() });
    const executable = this.executablePath!;
    if (this.unsandboxed) return launch(executable, false);
    try {
      if (process.getuid?.() !== 0) return await launch(executable, true);
      const user = libreOfficeSandbox(); // the same user and the same switch as LibreOffice's
      if (!user.otherUser) throw new Error(user.missing.join('; '));
      return await launch(unprivilegedChromium(executable, user.runAs, user, user.ownFiles), true);
    } catch (error) {
      this.unsandboxed = true;
      console.warn(`Chromium runs without its sandbox: it did not start with it (${String((error as Error).message).split('\n')[0]})`);
      return launch(executable, false);
    }
  }

  /** A new context for pages of these origins, every request elsewhere stopped before it leaves. */
  private async prepare(urls: string[]): Promise<Ready> {
    const browser = await this.launch();
    const origins = new Set(urls.map((url) => new URL(url).origin));
    const own = new URL(urls[0] ?? 'http://127.0.0.1');
    const context = await browser.newContext({
      serviceWorkers: 'block', acceptDownloads: false,
      // Chromium connects ahead of some requests (a frame's navigation) before the route below sees them:
      // through this "proxy" such a connection reaches our own server, not the address the page named
      proxy: { server: own.origin, bypass: `<-loopback>,${own.host}` },
    });
    const ours = (url: string | URL) => origins.has(new URL(url).origin);
    try {
      await context.route('**/*', (route) => (ours(route.request().url()) ? route.continue() : route.abort('blockedbyclient')));
      await context.routeWebSocket(() => true, (socket) => (ours(socket.url()) ? socket.connectToServer() : socket.close()));
      const page = await context.newPage();
      await page.emulateMedia({ media: 'print' });
      return { origins: [...origins].sort().join(' '), context, page };
    } catch (error) {
      await context.close();
      throw error;
    }
  }

  /** The context made ahead for these origins if there is one, else a new one. */
  private async take(urls: string[]): Promise<Ready> {
    const spare = await this.spare?.catch(() => undefined);
    this.spare = undefined;
    const origins = [...new Set(urls.map((url) => new URL(url).origin))].sort().join(' ');
    if (spare && spare.origins === origins && !spare.page.isClosed()) return spare;
    await spare?.context.close().catch(() => {});
    return this.prepare(urls);
  }

  /**
   * Prints each address in order; each page is ready when `readySelector` (given the
   * page's index) shows. One job's pages share a context; no context serves two jobs.
   */
  async print(urls: string[], readySelector: string | ((index: number) => string), timeoutMs: number, options: PrintOptions = {}): Promise<Uint8Array[]> {
    const { context, page } = await this.take(urls);
    const selector = typeof readySelector === 'string' ? () => readySelector : readySelector;
    try {
      page.setDefaultTimeout(timeoutMs);
      const printed: Uint8Array[] = [];
      for (const [index, url] of urls.entries()) {
        if (index > 0 && options.inApp) {
          const { pathname, search } = new URL(url);
          await page.evaluate((address) => {
            history.pushState(null, '', address);
            dispatchEvent(new PopStateEvent('popstate'));
          }, `${pathname}${search}`);
        } else {
          await page.goto(url, { waitUntil: 'load' });
        }
        await page.locator(selector(index)).first().waitFor();
        printed.push(await page.pdf({ format: 'Letter', printBackground: true, margin: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN } }));
      }
      return printed;
    } finally {
      await context.close();
      // the next job's context, made while nothing waits for it
      this.spare = this.prepare(urls).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    const spare = await this.spare?.catch(() => undefined);
    this.spare = undefined;
    await spare?.context.close().catch(() => {});
    const browser = await this.browser?.catch(() => undefined);
    this.browser = undefined;
    await browser?.close();
  }
}
