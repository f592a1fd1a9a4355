import { execSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../support/browser.ts';
import { startServerProcess } from '../load/server-process.ts';
import { buildAndServeReferencePages, type ReferenceServer } from './reference-pages.ts';

/**
 * Our pages are opened at this name (Chromium maps it to 127.0.0.1), not at localhost: on
 * localhost the client also runs the developers' configuration checks (src/client/main.tsx),
 * which no applicant ever loads.
 */
export const HOST = 'applicant.test';

export interface FormBench {
  /** our server's address, at HOST */
  url: string;
  /** the copy of the build our server sends */
  clientDir: string;
  /** the address of a second server of ours serving `otherClient` (another build), when asked */
  otherUrl?: string;
  reference: ReferenceServer;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * What `npm run bench:form` and `bench:form:profile` measure in: the production build
 * (unless `build` is false) served by our server, the reference pages by theirs, each a
 * process of its own as deployed (in the benchmark's process, serving would wait on its
 * work), and a headless Chromium that treats both as secure contexts, as https would.
 * `otherClient`: another build's dist/client, served at once by a second server of ours
 * (`npm run bench:form:compare`).
 */
export async function startFormBench({ build, otherClient }: { build: boolean; otherClient?: string }): Promise<FormBench> {
  if (build) execSync('npm run build', { stdio: 'inherit' });
  const reference = await buildAndServeReferencePages(HOST);
  const serve = async (client: string) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-form-'));
    // a copy of the build: another build in this tree during the run must not pull the files away
    const clientDir = join(dataDir, 'client');
    cpSync(client, clientDir, { recursive: true });
    // and the server's drawing of the form pages beside it, where the server looks for it (config.ts)
    const ssr = join(client, '..', 'ssr');
    if (existsSync(ssr)) cpSync(ssr, join(dataDir, 'ssr'), { recursive: true });
    const server = await startServerProcess({ dataDir, env: { CLIENT_DIR: clientDir } });
    return { dataDir, clientDir, server, url: `http://${HOST}:${new URL(server.url).port}` };
  };
  const servers = [await serve('dist/client'), ...(otherClient ? [await serve(otherClient)] : [])];
  const [{ url, clientDir }, other] = [servers[0]!, servers[1]];
  // as the tests' browser: a fresh context's window would otherwise start the address bar's
  // popups in a renderer beside the page being timed, which an applicant's open browser has
  // done long before
  const browser = await launchBrowser({
    args: [
      `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
      `--unsafely-treat-insecure-origin-as-secure=${[...servers.map((item) => item.url), new URL(reference.url('bare-input')).origin].join(',')}`,
    ],
  });
  return {
    url, clientDir, otherUrl: other?.url, reference, browser,
    async close() {
      await browser.close();
      for (const { server, dataDir } of servers) {
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
      await reference.close();
    },
  };
}

/**
 * Opens `url` and returns its time to interactive as every form benchmark takes it: from
 * navigation to the first field shown and the main thread idle.
 */
export async function openUntilInteractive(page: Page, url: string): Promise<number> {
  const started = Date.now();
  await page.goto(url);
  await page.locator('[data-page] input, [data-page] select').first().waitFor({ timeout: 120_000 });
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 })));
  return Date.now() - started;
}
