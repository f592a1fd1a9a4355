/**
 * The application file in Chromium: a submitted applicant sees each item, whether it is
 * required of them and its state with its day, on the completion page (a submitted
 * applicant's one page), in English and in Spanish; a state that changes while
 * they are away is said in a polite live region when they come back, and once complete
 * the file names the day a decision is due. Staff see the states in the read-only service
 * view and in the PDF copy printed from it.
 */
import { describe, expect, it } from 'vitest';
import fileItems from '../../schemas/file-items.json';
import spanishItems from '../../schemas/i18n/es/file-items.json';
import { signServiceToken } from '../../src/server/pdf/service-token.ts';
import { calendarDay } from '../../src/shared/file-items/item-words.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { signedInPage } from '../../support/signed-in-page.ts';
import { axeViolations } from '../helpers/axe.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import { pdfText, withoutWhitespace } from '../helpers/pdf-text.ts';

const env = useServerAndBrowser();
const texts = fileItems.texts;
const es = spanishItems.texts;
const title = (id: string) => fileItems.items.find((item) => item.id === id)!.title;
const spanishTitle = (id: string) => spanishItems.items.find((item) => item.id === id)!.title;

/** An item's state as stored, written as the office's systems would leave it. */
async function store(applicantId: string, itemId: string, state: 'requested' | 'received' | 'waived', changedAt: string) {
  await env.server.app.db.insertInto('file_items')
    .values({ applicant_id: applicantId, item_id: itemId, state, changed_at: changedAt, changed_by: 'office:test', note: null, document_key: null })
    .onConflict((conflict) => conflict.columns(['applicant_id', 'item_id']).doUpdateSet({ state, changed_at: changedAt }))
    .execute();
}

describe('the applicant\'s application file', () => {
  it('lists the items on the completion page, says a change, and the day a decision is due', async () => {
    const { page, context, applicant } = await signedInPage(env.browser, env.server, { email: 'file.items@example.org', answers: completeApplication(), status: 'submitted' });
    await store(applicant.id, 'transcript', 'requested', '2026-12-01T16:00:00Z');
    // 03:00 UTC on December 1 is still November 30 in the partner's time zone (Chicago)
    await store(applicant.id, 'counselor-recommendation', 'waived', '2026-12-01T03:00:00Z');
    await page.goto(`${env.server.url}/completion`);
    const file = page.getByRole('region', { name: texts.heading });
    await file.getByRole('heading', { level: 2, name: texts.heading }).waitFor();
    expect(await file.getByRole('heading', { level: 3 }).allTextContents()).toEqual(fileItems.items.map((item) => item.title));
    const item = (id: string) => file.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title(id) }) });
    expect(await item('transcript').textContent()).toContain(`${texts.required}Requested on December 1, 2026`);
    expect(await item('test-scores').textContent()).toContain(`${texts.not_needed}${texts.state_missing}`);
    expect(await item('counselor-recommendation').textContent()).toContain(`${texts.optional}Waived on November 30, 2026`);
    await file.getByText(texts.intro.replace('{days}', String(fileItems.decision_days))).waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await screenshot(page, 'application-file-completion');

    // the transcript arrives while the applicant is elsewhere; coming back reads the file again
    const { completedAt } = await env.server.app.fileItems.mark(applicant.id, 'transcript', { state: 'received', by: 'office:test' });
    expect(completedAt).toBeInstanceOf(Date);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    const announcement = page.locator('[data-file-announcement]');
    await expect.poll(() => announcement.textContent()).toContain(`${title('transcript')}: Received on `);
    expect(await announcement.getAttribute('aria-live')).toBe('polite');
    const due = (await env.server.app.fileItems.view(applicant.id)).decision_due!;
    await file.getByText(texts.complete.replace('{date}', calendarDay(due, 'en'))).waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await screenshot(page, 'application-file-complete');

    // the welcome above keeps the lines the file does not say (the test codes, where to ask), and the file is listed once
    const welcome = page.locator('.welcome-box');
    expect(await welcome.locator('.next-steps li').allTextContents()).toEqual([expect.stringContaining('SAT code 1234'), expect.stringContaining('Questions?')]);
    expect(await page.locator('.application-file').count()).toBe(1);

    // in Spanish
    await page.goto(`${env.server.url}/completion?lang=es`);
    const spanish = page.getByRole('region', { name: es.heading });
    await spanish.getByRole('heading', { level: 2, name: es.heading }).waitFor();
    expect(await spanish.getByRole('heading', { level: 3 }).allTextContents()).toEqual(fileItems.items.map((entry) => spanishTitle(entry.id)));
    expect(await spanish.getByRole('listitem').filter({ hasText: spanishTitle('counselor-recommendation') }).textContent()).toContain(`${es.optional}Dispensado el 30 de noviembre de 2026`);
    await spanish.getByText(es.complete.replace('{date}', calendarDay(due, 'es'))).waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await screenshot(page, 'application-file-completion-es');
    await context.close();
  });
});

describe('staff\'s view of the application file', () => {
  it('shows each item\'s state and day in the service view and in the PDF copy', async () => {
    const { context, applicant, api } = await signedInPage(env.browser, env.server, { email: 'file.staff@example.org', answers: completeApplication(), status: 'submitted' });
    await context.close();
    await store(applicant.id, 'transcript', 'received', '2026-12-02T16:00:00Z');
    const token = encodeURIComponent(signServiceToken(env.server.app.serviceSecret, applicant.id, 60_000));
    const service = await env.browser.newContext();
    const { page } = await openPage(service);
    await page.goto(`${env.server.url}/about?service_token=${token}`);
    const file = page.getByRole('region', { name: texts.staff_heading });
    await file.getByRole('heading', { level: 2, name: texts.staff_heading }).waitFor();
    expect(await file.getByRole('listitem').filter({ hasText: title('transcript') }).textContent()).toContain(`${texts.required}Received on December 2, 2026`);
    expect(await file.getByRole('listitem').filter({ hasText: title('test-scores') }).textContent()).toContain(texts.not_needed);
    // staff read the states, not the applicant's intro
    expect(await file.getByText(fileItems.items[0]!.description).count()).toBe(0);
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await screenshot(page, 'application-file-service-view');
    // once, on the first page
    await page.goto(`${env.server.url}/education-ug?service_token=${token}`);
    await page.locator('.page-form-service[data-page="education-ug"]').waitFor();
    expect(await page.locator('.application-file').count()).toBe(0);
    await service.close();

    await expect.poll(async () => (await api.get<{ status: string }>('/api/pdf')).body.status, { timeout: 60_000 }).toBe('COMPLETED');
    const pdf = await fetch(`${env.server.url}/api/pdf/file`, { headers: { cookie: [...api.cookies].map(([name, value]) => `${name}=${value}`).join('; '), 'sec-fetch-site': 'same-origin' } });
    expect(pdf.status).toBe(200);
    const text = withoutWhitespace(pdfText(new Uint8Array(await pdf.arrayBuffer())));
    for (const words of [texts.staff_heading, title('transcript'), 'Received on December 2, 2026', title('counselor-recommendation'), texts.state_missing]) {
      expect(text).toContain(withoutWhitespace(words));
    }
  });
});
