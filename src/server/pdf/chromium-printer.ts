import { chromium, type Browser } from 'playwright-core';

export class PrinterMissingError extends Error {}

/**
 * A warm headless Chromium that prints pages to PDF. Launched on first use and reused
 * (a cold launch costs more than a print); each job gets a fresh context, so nothing
 * carries from one applicant to the next.
 */
export class ChromiumPrinter {
  private browser: Promise<Browser> | undefined;

  constructor(private readonly executablePath: string | undefined) {}

  private launch(): Promise<Browser> {
    if (!this.executablePath) throw new PrinterMissingError('Chromium is not installed: apt-get install chromium');
    this.browser ??= chromium.launch({
      executablePath: this.executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu', '--no-first-run'],
    }).then((browser) => {
      browser.on('disconnected', () => (this.browser = undefined));
      return browser;
    }, (error: unknown) => {
      this.browser = undefined;
      throw error;
    });
    return this.browser;
  }

  /** Prints each address in order; each page is ready when `readySelector` shows. */
  async print(urls: string[], readySelector: string, timeoutMs: number): Promise<Uint8Array[]> {
    const browser = await this.launch();
    const context = await browser.newContext();
    try {
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
