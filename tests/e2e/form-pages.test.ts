import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import { form } from '../../src/shared/form/form-model-data.ts';
import { signServiceToken } from '../../src/server/pdf/service-token.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { axeViolations } from '../helpers/axe.ts';
import { openPage, screenshot } from '../../support/browser.ts';

const env = useServerAndBrowser();

describe('the three pages, rendered from the schema files', () => {
  it('renders a read-only service view from the same schemas', async () => {
    const context = await env.browser.newContext();
    const { page, problems } = await openPage(context);
    const api = await createConfirmedApplicant(env.server.app, 'service.view@example.org');
    await api.put('/api/answer', { gender: 'M', first_name: 'Viewed' });
    const applicant = await env.server.app.db.selectFrom('applicants').select('id').where('email', '=', 'service.view@example.org').executeTakeFirstOrThrow();
    const token = signServiceToken(env.server.app.serviceSecret, applicant.id, 60_000);
    await page.goto(`${env.server.url}/about?service_token=${encodeURIComponent(token)}`);
    await page.locator('.page-form-service').waitFor();
    expect(await page.locator('.step-nav a').count()).toBe(form.pageOrder.length); // staff move between the three pages
    expect(await page.locator('.welcome-box').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Account' }).count()).toBe(0);
    expect(await page.locator('[data-page] input, [data-page] select, [data-page] button').count()).toBe(0);
    expect(await page.locator('[data-field-key="gender"]').textContent()).toContain('[ ] Female');
    expect(await page.locator('[data-field-key="gender"]').textContent()).toContain('[X] Male');
    expect(await page.locator('[data-field-key="first_name"]').textContent()).toContain('Viewed');
    await screenshot(page, 'service-view-about');
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  for (const id of form.pageOrder) {
    it(`renders ${id}`, async () => {
      const context = await env.browser.newContext();
      const { page, problems } = await openPage(context);
      await page.goto(`${env.server.url}/${id}`);
      await page.getByRole('heading', { level: 1, name: form.pages[id].title }).waitFor();
      await screenshot(page, `page-${id}`);
      expect(problems.errors).toEqual([]);
      expect(await axeViolations(page, { strict: true })).toEqual([]);
      await context.close();
    });
  }
});
