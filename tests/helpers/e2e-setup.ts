import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { closeContexts, workerBrowser } from './worker-browser.ts';

/** A real server and Debian's Chromium for one test file, started before and stopped after. */
export function useServerAndBrowser(options: Parameters<typeof startTestServer>[0] = {}): { server: TestServer; browser: Browser } {
  const env = {} as { server: TestServer; browser: Browser };
  beforeAll(async () => {
    env.server = await startTestServer(options);
    env.browser = await workerBrowser();
  });
  afterAll(async () => {
    await closeContexts(env.browser);
    await env.server?.close();
  });
  return env;
}
