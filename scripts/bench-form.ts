/**
 * `npm run bench:form`: builds the production bundle, serves it, opens each page in
 * Chromium and prints, per page: keystroke-to-next-frame latency (median, p95, max over
 * 60 keystrokes in a field near the end of the page), with and without 4x CPU
 * throttling; time to interactive; and the gzip size of the JavaScript a first visit loads.
 */
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { form } from '../src/shared/form/form-model-data.ts';

const KEYSTROKES = 60;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function keystrokeLatencies(page: Page, selector: string): Promise<number[]> {
  await page.evaluate(() => {
    const samples: number[] = [];
    (window as unknown as { __samples: number[] }).__samples = samples;
    window.addEventListener('keydown', (event) => {
      const start = event.timeStamp;
      requestAnimationFrame(() => samples.push(performance.now() - start));
    }, { capture: true });
  });
  const field = page.locator(selector);
  await field.scrollIntoViewIfNeeded();
  await field.click();
  const text = 'The quick brown fox jumps over the lazy dog again and again';
  for (let index = 0; index < KEYSTROKES; index++) {
    await page.keyboard.press(text[index % text.length] === ' ' ? 'Space' : text[index % text.length]!);
    await page.waitForTimeout(30);
  }
  await page.waitForTimeout(300);
  return page.evaluate(() => (window as unknown as { __samples: number[] }).__samples);
}

/** The last plain text field of the page: typing there exercises the whole page. */
async function lastTextField(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const inputs = [...document.querySelectorAll<HTMLInputElement>('[data-page] input[type="text"]:not([readonly])')];
    const last = inputs[inputs.length - 1];
    return last ? `#${CSS.escape(last.id)}` : undefined;
  });
}

async function main(): Promise<void> {
  if (!process.argv.includes('--no-build')) execSync('npm run build', { stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-form-'));
  const app = await buildApp(loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://localhost:${(app.server.address() as { port: number }).port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu'],
  });

  const rows: string[][] = [];
  try {
    for (const id of form.pageOrder) {
      const results: Record<string, string> = {};
      for (const throttle of [1, 4]) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
        const scripts = new Map<string, number>();
        page.on('response', async (response) => {
          if (!response.url().endsWith('.js')) return;
          try {
            scripts.set(response.url(), gzipSync(await response.body()).length);
          } catch {
            // a redirect or an aborted load has no body
          }
        });
        const started = Date.now();
        await page.goto(`${url}/${id}`);
        await page.locator('[data-page] input, [data-page] select').first().waitFor();
        await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 })));
        const interactive = Date.now() - started;
        const selector = await lastTextField(page);
        const samples = selector ? await keystrokeLatencies(page, selector) : [];
        results[`${throttle}x`] = samples.length
          ? `${percentile(samples, 50).toFixed(1)} / ${percentile(samples, 95).toFixed(1)} / ${Math.max(...samples).toFixed(1)}`
          : 'no text field';
        results[`tti${throttle}x`] = String(interactive);
        if (throttle === 1) results.js = (([...scripts.values()].reduce((a, b) => a + b, 0)) / 1024).toFixed(0);
        results.field = selector ?? '-';
        await context.close();
      }
      rows.push([id, results['1x']!, results['4x']!, results.tti1x!, results.tti4x!, results.js!, results.field!]);
    }
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const header = ['page', 'keystroke ms 1x (p50 / p95 / max)', 'keystroke ms 4x (p50 / p95 / max)', 'TTI ms 1x', 'TTI ms 4x', 'first-visit JS KB gzip', 'typed into'];
  console.log(`\n${header.join(' | ')}\n${header.map(() => '---').join(' | ')}`);
  for (const row of rows) console.log(row.join(' | '));
  console.log(`\n${KEYSTROKES} keystrokes per run; latency = keydown event to the next animation frame. Targets: p95 < 16 ms (1x) and < 50 ms (4x) on education-ug; first-visit JS < 250 KB gzip.`);
}

await main();
