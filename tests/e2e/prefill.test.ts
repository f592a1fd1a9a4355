import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPrefill } from '../../src/server/db/repositories/prefill-repository.ts';
import { randomToken, sha256 } from '../../src/server/lib/secrets.ts';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('prefilled answers (?token=)', () => {
  it('fills the answers staff prefilled, and an unknown token gives an empty form', async () => {
    const token = randomToken();
    await insertPrefill(server.app.db, sha256(token), { first_name: 'Prospect', city: 'Riverton' }, new Date(Date.now() + 86_400_000));
    const context = await browser.newContext();
    const { page } = await openPage(context);
    await page.goto(`${server.url}/about?token=${token}`);
    await expect.poll(() => page.locator('#first_name').inputValue()).toBe('Prospect');
    expect(await page.locator('#city').inputValue()).toBe('Riverton');

    const other = await browser.newContext();
    const { page: empty } = await openPage(other);
    await empty.goto(`${server.url}/about?token=${randomToken()}`);
    await empty.locator('#first_name').waitFor();
    await empty.waitForTimeout(300);
    expect(await empty.locator('#first_name').inputValue()).toBe('');
    await context.close();
    await other.close();
  });
});
