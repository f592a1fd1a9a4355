import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from '../../support/browser.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

/** A real server and Debian's Chromium for one test file, started before and stopped after. */
export function useServerAndBrowser(options: Parameters<typeof startTestServer>[0] = {}): { server: TestServer; browser: Browser } {
  const env = {} as { server: TestServer; browser: Browser };
  beforeAll(async () => {
    env.server = await startTestServer(options);
    env.browser = await launchBrowser();
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}
