/**
 * The application file carried to completion, in Chromium against the real server, SMTP
 * receiver, LibreOffice and a webhook receiver that checks signatures, on PGlite and on
 * PostgreSQL: a submitted applicant sees the checklist and asks the counselor; the
 * counselor's mail arrives, its link takes a Word file, which converts, and the transcript
 * turns "Received" on the applicant's page; the office's system waives the test scores with
 * an office key; the file is complete on the page, one mail and one file_complete event go
 * out, and the export carries the items and the completion.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fileItems from '../../schemas/file-items.json';
import { exportApplications } from '../../src/server/export/export-applications.ts';
import { makeOfficeKey } from '../../src/server/file-items/office-keys.ts';
import { calendarDay } from '../../src/shared/file-items/item-words.ts';
import { openPage, screenshot } from '../../support/browser.ts';
import { makeDocx } from '../../support/document-fixtures.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { signedInPage } from '../../support/signed-in-page.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';
import { startWebhookReceiver } from '../../support/webhook-receiver.ts';
import { axeViolations } from '../helpers/axe.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const texts = fileItems.texts;
const transcriptTitle = fileItems.items.find((item) => item.id === 'transcript')!.title;
const completeSubject = texts.complete_subject.replace('{short_name}', 'CHU');
const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_all, key: string) => values[key] ?? `{${key}}`);

describe.each(databaseTargets())('an application file carried to completion, on $name', (target) => {
  const receiver = startWebhookReceiver(SECRET);
  let smtp: SmtpReceiver;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    const url = await receiver.listen();
    smtp = await startSmtpReceiver();
    server = await startTestServerOn(target, { env: { SMTP_URL: smtp.url, WEBHOOK_URL: url, WEBHOOK_SECRET: SECRET, JOB_RETRY_DELAY_MS: '1' } });
    browser = await workerBrowser();
  });
  afterAll(async () => {
    await closeContexts(browser);
    await server?.close();
    await smtp?.close();
    await receiver.close();
  });

  it('goes from the counselor\'s request to a complete file, mailed, announced and exported once', async () => {
    const email = `whole.file.${target.name}@example.org`;
    const counselor = `counselor.${target.name}@central-high.example.org`;
    const { page, context, applicant } = await signedInPage(browser, server, {
      email, answers: { ...completeApplication(), test_optional: 'Y', counselor_email_address: counselor }, status: 'submitted',
    }, { path: '/completion' });
    const transcript = page.locator('[data-item-id="transcript"]');
    const scores = page.locator('[data-item-id="test-scores"]');
    await page.getByRole('heading', { name: texts.heading }).waitFor();
    expect(await transcript.textContent()).toContain(texts.state_missing);
    expect(await scores.textContent()).toContain(texts.required);

    // the applicant asks the counselor they named
    await transcript.getByRole('button', { name: texts.ask_counselor }).click();
    await transcript.getByRole('button', { name: texts.send_request }).click();
    await transcript.getByRole('button', { name: texts.withdraw_request }).waitFor();

    // the counselor: the mail, the link, a Word file, no account
    const mail = await smtp.waitFor(counselor);
    expect(mail.text).toContain('Ada Lovelace');
    const link = /https?:\/\/\S+\/counselor\S*/.exec(mail.text)![0];
    const counselorContext = await browser.newContext();
    const { page: counselorPage, problems } = await openPage(counselorContext);
    await counselorPage.goto(link);
    await counselorPage.getByRole('heading', { level: 1, name: fill(texts.counselor_title, { applicant: 'Ada Lovelace' }) }).waitFor();
    await counselorPage.getByLabel(texts.upload_label).setInputFiles({
      name: 'transcript.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: await makeDocx(['Official transcript', 'Ada Lovelace: GPA 3.75']),
    });
    await counselorPage.getByText(fill(texts.counselor_received, { item: transcriptTitle, applicant: 'Ada Lovelace' })).first().waitFor({ timeout: 120_000 });
    expect(problems.errors).toEqual([]);
    await counselorContext.close();

    // back on the applicant's page: the transcript is in, the file still waits for the scores
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => transcript.textContent()).toContain(texts.state_received);
    expect(await page.getByText(texts.complete.split('{date}')[0]!.trim()).count()).toBe(0);

    // the office's system waives the test scores, with its key, over HTTP
    const { key } = await makeOfficeKey(server.app.db, 'registrar', 'test');
    const waived = await fetch(`${server.url}/api/office/applicants/${applicant.id}/file/items/test-scores`, {
      method: 'PUT', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ state: 'waived', note: 'test-optional by policy' }),
    });
    expect(waived.status).toBe(200);

    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => scores.textContent()).toContain(texts.state_waived);
    const due = (await server.app.fileItems.view(applicant.id)).decision_due!;
    const completeLine = fill(texts.complete, { date: calendarDay(due, 'en') });
    await page.getByText(completeLine).waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await screenshot(page, 'application-file-complete');

    // one mail and one completion event, and every change announced
    const completeMail = await smtp.waitFor(email, (received) => received.subject === completeSubject);
    expect(completeMail.text).toContain('Ada Lovelace');
    await until(async () => {
      const pending = await server.app.db.selectFrom('jobs').select('id').where('kind', 'in', ['webhook', 'mail']).where('status', '!=', 'done').execute();
      return pending.length === 0 || undefined;
    }, 'every event and mail sent');
    expect(smtp.inbox.filter((received) => received.to === email && received.subject === completeSubject)).toHaveLength(1);
    expect(receiver.ofType('application.file_complete', applicant.id)).toHaveLength(1);
    expect(receiver.ofType('application.file_item_changed', applicant.id).map((event) => [event.data.item, event.data.state])).toEqual(expect.arrayContaining([
      ['transcript', 'requested'], ['transcript', 'received'], ['test-scores', 'waived'],
    ]));
    expect(receiver.badSignatures).toEqual([]);

    // the export carries the items and the completion
    const out = mkdtempSync(join(tmpdir(), 'file-export-'));
    try {
      const { manifest } = await exportApplications(server.app.db, { all: false, format: 'jsonl', outDir: out });
      const record = readFileSync(join(out, manifest.file), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.email === email)!;
      expect(record).toMatchObject({ transcript_state: 'received', test_scores_state: 'waived', counselor_recommendation_state: 'missing', decision_due: due });
      expect(record.file_complete_at).toEqual(expect.any(String));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    await context.close();
  }, 300_000);
});
