import { chromium, type Browser } from 'playwright-core';

export class PrinterMissingError extends Error {}

/**
 * A warm headless Chromium that prints pages to PDF. Launched on first use and reused
 * (a cold launch costs more than a print); each job gets a fresh context, so nothing
 * carries from one applicant to the next.
 *
 * It prints our own pages only: every request of a print context (pages, frames, pictures,
 * fetch, websockets, pings) to another origin than the pages' is aborted before it leaves,
 * and service workers, which could answer requests past that check, are blocked. Chromium's
 * sandbox is on unless the server runs as root, where Chromium refuses it.
 */
const ARGS = [
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu', '--no-first-run',
  // what leaves without a request the route in print() could stop: DNS prefetching, WebRTC's UDP
  '--dns-prefetch-disable', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

export class ChromiumPrinter {
  private browser: Promise<Browser> | undefined;
  private unsandboxed = process.getuid?.() === 0; // as root Chromium starts only with --no-sandbox

  constructor(private readonly executablePath: string | undefined) {}

  private launch(): Promise<Browser> {
    if (!this.executablePath) throw new PrinterMissingError('Chromium is not installed: apt-get install chromium');
    this.browser ??= this.open().then((browser) => {
      browser.on('disconnected', () => (this.browser = undefined));
      return browser;
    }, (error: unknown) => {
      this.browser = undefined;
      throw error;
    });
    return this.browser;
  }

  /** With Chromium's sandbox, unless the server runs as root or the machine cannot give it one (no user namespaces): then without, said once. */
  private async open(): Promise<Browser> {
    const launch = (sandbox: boolean) => chromium.launch({ executablePath: this.executablePath, headless: true, chromiumSandbox: sandbox, args: ARGS });
    if (this.unsandboxed) return launch(false);
    try {
      return await launch(true);
    } catch (error) {
      this.unsandboxed = true;
      console.warn(`Chromium runs without its sandbox: it did not start with it (${String((error as Error).message).split('\n')[0]})`);
      return launch(false);
    }
  }

  /** Prints each address in order; each page is ready when `readySelector` shows. */
  async print(urls: string[], readySelector: string, timeoutMs: number): Promise<Uint8Array[]> {
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
      page.setDefaultTimeout(timeoutMs);
      const printed: Uint8Array[] = [];
      for (const url of urls) {
        await page.goto(url, { waitUntil: 'load' });
        await page.locator(readySelector).first().waitFor();
        await page.emulateMedia({ media: 'print' });
        printed.push(await page.pdf({ format: 'Letter', printBackground: true, margin: { top: '0.5in', bottom: '0.5in', left: '0.5in', right: '0.5in' } }));
      }
      return printed;
    } finally {
      await context.close();
    }
  }

  async close(): Promise<void> {
    const browser = await this.browser?.catch(() => undefined);
    this.browser = undefined;
    await browser?.close();
  }
}
