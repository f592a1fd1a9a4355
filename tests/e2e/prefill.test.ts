import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import { insertPrefill } from '../../src/server/db/repositories/prefill-repository.ts';
import { randomToken, sha256 } from '../../src/server/lib/secrets.ts';
import { openPage } from '../../support/browser.ts';

const env = useServerAndBrowser();

describe('prefilled answers (?token=)', () => {
  it('fills the answers staff prefilled, and an unknown token gives an empty form', async () => {
    const token = randomToken();
    await insertPrefill(env.server.app.db, sha256(token), { first_name: 'Prospect', city: 'Riverton' }, new Date(Date.now() + 86_400_000));
    const context = await env.browser.newContext();
    const { page } = await openPage(context);
    await page.goto(`${env.server.url}/about?token=${token}`);
    await expect.poll(() => page.locator('#first_name').inputValue()).toBe('Prospect');
    expect(await page.locator('#city').inputValue()).toBe('Riverton');

    const other = await env.browser.newContext();
    const { page: empty } = await openPage(other);
    const answered = empty.waitForResponse((response) => response.url().includes('/public/tmp'));
    await empty.goto(`${env.server.url}/about?token=${randomToken()}`);
    await empty.locator('#first_name').waitFor();
    await answered; // the unknown token's answer has come, and filled nothing
    expect(await empty.locator('#first_name').inputValue()).toBe('');
    await context.close();
    await other.close();
  });
});
