import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import documentsText from '../../schemas/documents.json';
import { DOCX_BUDGET } from '../../src/server/documents/docx-budget.ts';
import { fillTemplate } from '../../src/shared/text/fill-template.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { interlacedPng, makeDocx, makeTableDocx, rgbPng } from '../../support/document-fixtures.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServer, startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { conversionResult, uploadThroughApi } from '../../support/uploads.ts';

/**
 * One applicant cannot hold the converters of everyone. Conversions are served by
 * applicant in turn, one question has one job at most, a Word file that takes LibreOffice
 * past its timeout fails at once with a message saying so, and files that would take long
 * are refused before any converter sees them: Word files past a page, table-row or cell
 * budget, PNGs past a pixel budget for those that must be decoded.
 */

const messages = documentsText.messages;
const SOFFICE = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find(existsSync);
const fixture = (name: string) => resolve(import.meta.dirname, '..', 'fixtures', name);
const docxTooLong = fillTemplate(messages.docx_too_long, DOCX_BUDGET);

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** When a document's conversion ended (its row's last change), by the server's clock: the order of events. */
async function endedAt(running: TestServer, email: string, key: string): Promise<number> {
  const rows = await sql<{ status: string; updated_at: Date }>`
    select d.status, d.updated_at from documents d join applicants a on a.id = d.applicant_id
    where a.email = ${email} and d.answer_key = ${key}`.execute(running.app.db);
  expect(rows.rows[0]?.status).toBe('COMPLETED');
  return rows.rows[0]!.updated_at.getTime();
}

const conversionJobs = (running: TestServer) => running.app.db.selectFrom('jobs').select(['status', 'attempts', 'last_error'])
  .where('kind', 'in', ['convert_document', 'convert_office_document']).orderBy('id').execute();

describe.skipIf(!SOFFICE)('a fair share of the converters, real LibreOffice', () => {
  it('one applicant\'s one-line Word file converts before the later ones of another who queued three slow ones first', async () => {
    // a timeout long enough that every file converts: what is asserted is the order, not a time
    server = await startTestServer({ env: { CONVERSION_TIMEOUT_MS: '240000', CONVERTER_START_TIMEOUT_MS: '240000' } });
    const attacker = await createConfirmedApplicant(server.app, 'hog@example.org');
    const victim = await createConfirmedApplicant(server.app, 'victim@example.org');
    // within the budget, and each still seconds of LibreOffice's layout
    const keys = ['hs_transcript', 'activ_resume', 'supporting_document'];
    for (const [index, key] of keys.entries()) {
      await uploadThroughApi(server.app, attacker, key, `table${index}.docx`, await makeTableDocx(DOCX_BUDGET.rows - 100, 1, { title: `Hog ${index}` }));
    }
    await uploadThroughApi(server.app, victim, 'hs_transcript', 'statement.docx', await makeDocx(['One line']));

    for (const key of keys) expect(await conversionResult(attacker, key, 600_000)).toEqual({ status: 'COMPLETED' });
    expect(await conversionResult(victim, 'hs_transcript', 600_000)).toEqual({ status: 'COMPLETED' });
    const victimDone = await endedAt(server, 'victim@example.org', 'hs_transcript');
    const attackerDone = await Promise.all(keys.map((key) => endedAt(server!, 'hog@example.org', key)));
    // the attacker's first file had the converter when the victim's arrived; the victim's went next.
    // Before: all three of the attacker's, then the victim's (one queue for everyone, oldest first)
    expect(victimDone).toBeGreaterThan(attackerDone[0]!);
    expect(victimDone).toBeLessThan(attackerDone[1]!);
    expect(victimDone).toBeLessThan(attackerDone[2]!);
  }, 900_000);
});

describe.skipIf(!SOFFICE).each(databaseTargets())('converter time shared by inbox and network, not by account, on $name', (target) => {
  it('a slow Word file from four plus-addressed accounts of one inbox delays another applicant\'s one-line file by at most one conversion timeout', async () => {
    // every slow file runs into the timeout; the bound is counted in them, not in seconds
    server = await startTestServerOn(target, { env: { SOFFICE_PATH: fixture('fake-soffice-crafted'), CONVERSION_TIMEOUT_MS: '3000', CONVERTER_START_TIMEOUT_MS: '120000' } });
    const slow = await makeDocx(['FAKE-SOFFICE-HANG', 'Huge letters on tiny pages']);
    expect(slow.length).toBeLessThan(2048); // about 1 KB, well within every budget
    const accounts = ['hog+1@example.org', 'Hog+2@example.org', 'hog+three@example.org', 'HOG@example.org'];
    const attackers = [];
    for (const email of accounts) attackers.push(await createConfirmedApplicant(server.app, email));
    const victim = await createConfirmedApplicant(server.app, 'victim@example.org');
    for (const attacker of attackers) await uploadThroughApi(server.app, attacker, 'hs_transcript', 'slow.docx', slow);
    await uploadThroughApi(server.app, victim, 'hs_transcript', 'statement.docx', await makeDocx(['One line']));

    expect(await conversionResult(victim, 'hs_transcript', 240_000)).toEqual({ status: 'COMPLETED' });
    for (const attacker of attackers) expect(await conversionResult(attacker, 'hs_transcript', 240_000)).toEqual({ status: 'FAILED', message: messages.conversion_timed_out });
    const ends = await sql<{ email: string; updated_at: Date }>`
      select a.email, d.updated_at from documents d join applicants a on a.id = d.applicant_id where d.answer_key = 'hs_transcript'`.execute(server.app.db);
    const victimEnd = ends.rows.find((row) => row.email === 'victim@example.org')!.updated_at.getTime();
    const attackersBefore = ends.rows.filter((row) => row.email !== 'victim@example.org' && row.updated_at.getTime() < victimEnd);
    // the one slow file running when the victim's arrived, at most: one timeout. Before: all four
    // accounts were applicants of their own, never served, ahead of the victim (four timeouts)
    expect(attackersBefore.length).toBeLessThanOrEqual(1);
  }, 300_000);
});

describe('one job per question, and files that would take long refused early', () => {
  it('queues one conversion for the same upload registered forty times at once', async () => {
    server = await startTestServer();
    const api = await createConfirmedApplicant(server.app, 'again@example.org');
    const key = await uploadThroughApi(server.app, api, 'activ_resume', 'resume.png', rgbPng(64, 48, (x, y) => [x * 4, y * 5, 128]));
    const again = await Promise.all(Array.from({ length: 40 }, () => api.post('/api/pdf/document-answer/activ_resume', { file_key: key, file_name: 'resume.png' })));
    expect(again.map((reply) => reply.status)).toEqual(Array.from({ length: 40 }, () => 200));
    expect(await conversionResult(api, 'activ_resume')).toEqual({ status: 'COMPLETED' });
    // before: 41 jobs, two of them running at once
    expect(await conversionJobs(server)).toEqual([{ status: 'done', attempts: 1, last_error: null }]);
    // registered again once converted: still converted, nothing queued
    expect((await api.post('/api/pdf/document-answer/activ_resume', { file_key: key, file_name: 'resume.png' })).body).toEqual({ status: 'COMPLETED' });
    expect(await conversionJobs(server)).toHaveLength(1);
  }, 240_000);

  it('refuses a Word file past the page, row or cell budget, and a large PNG that must be decoded, keeping what was saved', async () => {
    server = await startTestServer();
    const api = await createConfirmedApplicant(server.app, 'budget@example.org');
    await uploadThroughApi(server.app, api, 'hs_transcript', 'transcript.png', rgbPng(64, 48, () => [10, 120, 200]));
    expect(await conversionResult(api, 'hs_transcript')).toEqual({ status: 'COMPLETED' });

    // 11 KB, 4,000 table rows: minutes of LibreOffice's layout before
    await uploadThroughApi(server.app, api, 'activ_resume', 'table.docx', await makeTableDocx(4000));
    expect(await conversionResult(api, 'activ_resume', 120_000)).toEqual({ status: 'FAILED', message: docxTooLong });
    // the same table with the Word namespace under another prefix
    await uploadThroughApi(server.app, api, 'activ_resume', 'table.docx', await makeTableDocx(2000, 1, { prefix: 'x' }));
    expect(await conversionResult(api, 'activ_resume', 120_000)).toEqual({ status: 'FAILED', message: docxTooLong });
    // few rows, many cells
    await uploadThroughApi(server.app, api, 'activ_resume', 'wide.docx', await makeTableDocx(100, 20));
    expect(await conversionResult(api, 'activ_resume', 120_000)).toEqual({ status: 'FAILED', message: docxTooLong });
    // pages of plain text
    await uploadThroughApi(server.app, api, 'activ_resume', 'long.docx', await makeDocx(Array.from({ length: 12_000 }, (_, index) => `Line ${index} of a statement that goes on.`)));
    expect(await conversionResult(api, 'activ_resume', 120_000)).toEqual({ status: 'FAILED', message: docxTooLong });

    // 40 megapixels interlaced in some 150 KB: every pixel decoded in JavaScript, 24-30 s of a worker before
    const interlaced = interlacedPng(6400, 6250);
    expect(interlaced.length).toBeLessThan(documentsText.max_bytes);
    await uploadThroughApi(server.app, api, 'supporting_document', 'scan.png', interlaced);
    expect(await conversionResult(api, 'supporting_document', 120_000)).toEqual({
      status: 'FAILED', message: fillTemplate(messages.image_too_slow, { megapixels: 8 }),
    });

    // every refusal at its first attempt; what was saved stays
    expect((await conversionJobs(server)).slice(1)).toEqual(Array.from({ length: 5 }, () => ({ status: 'failed', attempts: 1, last_error: expect.any(String) })));
    expect(await conversionResult(api, 'hs_transcript')).toEqual({ status: 'COMPLETED' });
    const profile = await api.get<{ answer: Record<string, string> }>('/api/profile');
    expect(profile.body.answer).toEqual({ hs_transcript: 'ANSWERED' });
  }, 600_000);

  it('a Word file that takes LibreOffice past its timeout fails at once, told to send a PDF; not tried again', async () => {
    server = await startTestServer({
      env: { SOFFICE_PATH: fixture('fake-soffice-crafted'), CONVERSION_TIMEOUT_MS: '3000', CONVERTER_START_TIMEOUT_MS: '120000', JOB_RETRY_DELAY_MS: '100' },
    });
    const api = await createConfirmedApplicant(server.app, 'slow@example.org');
    await uploadThroughApi(server.app, api, 'hs_transcript', 'slow.docx', await makeDocx(['FAKE-SOFFICE-HANG', 'A statement']));
    // before: tried three times (each retry first in line), then "could not convert"
    expect(await conversionResult(api, 'hs_transcript', 240_000)).toEqual({ status: 'FAILED', message: messages.conversion_timed_out });
    expect(await conversionJobs(server)).toEqual([{ status: 'failed', attempts: 1, last_error: messages.conversion_timed_out }]);
  }, 300_000);
});
