import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import documentsText from '../../schemas/documents.json';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { makeDocx, makeImage, makePdf } from '../../support/document-fixtures.ts';
import { commandOf, descendantsOf, isAlive } from '../helpers/process-server.ts';
import { defaultDatabaseTarget } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { conversionResult, uploadThroughApi } from '../../support/uploads.ts';
import { until } from '../../support/until.ts';
import {
  jpegWithTwoFrames, pdfContentBomb, pdfDeepFilterChain, pdfObjectStreamBomb, pdfParserLoop, pdfParserMemory, pngWithDecoyHeader,
} from '../../support/fixtures/bomb-files.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

/**
 * Hostile files: decompression bombs, decoy image headers, PDFs that hold pdf-lib's parser
 * in a loop or past its memory. Each fails its conversion with a message the applicant
 * understands, and while it converts the server answers every other request: the files are
 * parsed in the untrusted file worker processes, never on the server's event loop.
 */

const messages = documentsText.messages;
/** The worker's time limit here (CONVERSION_TIMEOUT_MS, 30 s by default): the parser loop would run for hours. */
const CONVERSION_TIMEOUT_MS = '6000';

let browser: Browser;
let png: Buffer;
let jpeg: Buffer;
beforeAll(async () => {
  browser = await workerBrowser();
  png = await makeImage(browser, 'png', { width: 400, height: 300 });
  jpeg = await makeImage(browser, 'jpeg', { width: 400, height: 300 });
});
afterAll(async () => {
  await closeContexts(browser);
});

const pending = (status: string) => status === 'UNPROCESSED' || status === 'IN_PROGRESS';
/** The untrusted file worker processes of the server in this test process. */
const workerPids = () => descendantsOf(process.pid).filter((pid) => isAlive(pid) && commandOf(pid).includes('untrusted-file-process'));

// the worker processes are the subject: the database that records each file's end is incidental
describe.each(defaultDatabaseTarget())('hostile files on $name', (target) => {
  let server: TestServer;
  let counter = 0;
  const applicant = () => createConfirmedApplicant(server.app, `files${++counter}.${target.name}@example.org`);
  const health = () => fetch(`http://127.0.0.1:${new URL(server.url).port}/healthz`);

  /**
   * Follows the conversion of `key` to its end, asking meanwhile, one after another, for
   * GET /healthz (over HTTP), GET /api/profile and the document's status. Counts the rounds
   * that began and ended while the job was IN_PROGRESS.
   */
  async function followConversion(api: ApiSession, key: string) {
    const statusOf = async () => (await api.get<{ status: string; message?: string }>(`/api/pdf/document-answer/${key}`)).body;
    let roundsInProgress = 0;
    let before = await statusOf();
    // each round asks the server while the job runs; until() leaves a breath between rounds
    await until(async () => {
      if (!pending(before.status)) return before;
      expect((await health()).status).toBe(200);
      expect((await api.get('/api/profile')).status).toBe(200);
      const after = await statusOf();
      if (before.status === 'IN_PROGRESS' && after.status === 'IN_PROGRESS') roundsInProgress++;
      before = after;
      return undefined;
    }, `the conversion of ${key} to end`, 60_000);
    return { result: before, roundsInProgress };
  }

  beforeAll(async () => {
    server = await startTestServerOn(target, { env: { CONVERSION_TIMEOUT_MS } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('converts honest PNG, JPEG, PDF and Word files', async () => {
    const api = await applicant();
    for (const [key, name, bytes] of [
      ['hs_transcript', 'transcript.png', png], ['activ_resume', 'resume.jpg', jpeg], ['supporting_document', 'letter.pdf', await makePdf()],
    ] as const) {
      await uploadThroughApi(server.app, api, key, name, bytes);
      expect(await conversionResult(api, key), name).toEqual({ status: 'COMPLETED' });
    }
    // Word files on a server with the usual time limit: LibreOffice's cold start alone can pass 6 s on a busy machine
    const usual = await startTestServerOn(target);
    try {
      const writer = await createConfirmedApplicant(usual.app, `word.${target.name}@example.org`);
      await uploadThroughApi(usual.app, writer, 'hs_transcript', 'transcript.docx', await makeDocx());
      expect(await conversionResult(writer, 'hs_transcript', 90_000)).toEqual({ status: 'COMPLETED' });
    } finally {
      await usual.close();
    }
  }, 120_000);

  // refused as soon as the worker reaches the limit they break: they convert in milliseconds now
  it.each([
    ['a 3 KB PDF whose object stream inflates to 1 GB (compressed twice)', 'bomb.pdf', () => pdfObjectStreamBomb(), messages.pdf_too_much_data],
    ['a PDF whose page content inflates to 1 GB through three filters', 'content.pdf', () => pdfContentBomb(), messages.pdf_too_much_data],
    ['a PDF with a filter chain 12 deep', 'chain.pdf', () => pdfDeepFilterChain(12), messages.pdf_too_much_data],
    ['a PNG with a decoy 1x1 header before its real 8000x8000 one', 'decoy.png', () => pngWithDecoyHeader(), messages.corrupt],
    ['a JPEG with frames of 1x1 and 8000x8000', 'frames.jpg', () => jpegWithTwoFrames(), messages.corrupt],
  ])('refuses %s with its message, the server answering meanwhile', async (_label, name, make, message) => {
    const api = await applicant();
    await uploadThroughApi(server.app, api, 'supporting_document', name, make());
    // a health check and a profile load sent while the file is refused are answered; the refusal may come
    // before either (it takes milliseconds), so they are not required to land inside the conversion
    const [{ result }, healthMeanwhile, profileMeanwhile] = await Promise.all([
      followConversion(api, 'supporting_document'), health(), api.get('/api/profile'),
    ]);
    expect(result).toEqual({ status: 'FAILED', message });
    expect(healthMeanwhile.status).toBe(200);
    expect(profileMeanwhile.status).toBe(200);
    expect((await api.get<{ answer: Record<string, string> }>('/api/profile')).body.answer).toEqual({});
  });

  // these hold the worker for seconds: the server answers all along
  it.each([
    ['a PDF that holds pdf-lib\'s parser in a loop (one array parsed 200,000 times)', 'loop.pdf', () => pdfParserLoop()],
    ['a PDF whose parse outgrows the worker\'s memory (22 million objects from 90 KB)', 'memory.pdf', () => pdfParserMemory()],
  ])('fails %s at the worker\'s limit, while health checks and profile loads go on', async (_label, name, make) => {
    const api = await applicant();
    await uploadThroughApi(server.app, api, 'supporting_document', name, make());
    const { result, roundsInProgress } = await followConversion(api, 'supporting_document');
    expect(result).toEqual({ status: 'FAILED', message: messages.conversion_too_demanding });
    // several rounds began and ended while the hostile job was still IN_PROGRESS
    expect(roundsInProgress).toBeGreaterThanOrEqual(3);
  });

  it('while one applicant\'s hostile file holds one worker process, another\'s honest files convert in the other; the killed process is replaced', async () => {
    // another applicant's: an applicant's own files take turns (one at a time per lane), so the hostile one's wait behind it
    const api = await createConfirmedApplicant(server.app, `pool.${target.name}@example.org`);
    const other = await createConfirmedApplicant(server.app, `pool.other.${target.name}@example.org`);
    await server.app.untrustedFiles.warm(); // both processes of the pool, so that the second does not start under the clock
    const before = workerPids();
    expect(before).toHaveLength(2);
    await uploadThroughApi(server.app, api, 'hs_transcript', 'loop.pdf', pdfParserLoop());
    await expect.poll(async () => (await api.get<{ status: string }>('/api/pdf/document-answer/hs_transcript')).body.status, { timeout: 20_000, interval: 20 }).toBe('IN_PROGRESS');
    await uploadThroughApi(server.app, other, 'supporting_document', 'letter.pdf', await makePdf(['Meanwhile']));
    await uploadThroughApi(server.app, other, 'activ_resume', 'resume.png', png);
    expect(await conversionResult(other, 'supporting_document')).toEqual({ status: 'COMPLETED' });
    expect(await conversionResult(other, 'activ_resume')).toEqual({ status: 'COMPLETED' });
    expect(await conversionResult(api, 'hs_transcript')).toEqual({ status: 'FAILED', message: messages.conversion_too_demanding });
    // the honest files were done before the hostile one ended (the times the server wrote)
    const ended = Object.fromEntries((await server.app.db.selectFrom('documents').innerJoin('applicants', 'applicants.id', 'documents.applicant_id')
      .select(['documents.answer_key', 'documents.updated_at']).where('applicants.email', 'in', [`pool.${target.name}@example.org`, `pool.other.${target.name}@example.org`]).execute())
      .map((row) => [row.answer_key, new Date(row.updated_at).getTime()]));
    expect(ended.supporting_document).toBeLessThan(ended.hs_transcript!);
    expect(ended.activ_resume).toBeLessThan(ended.hs_transcript!);
    const now = workerPids();
    const killed = before.filter((pid) => !now.includes(pid));
    expect(killed).toHaveLength(1);
    await expect.poll(() => isAlive(killed[0]!), { timeout: 20_000 }).toBe(false); // killed; gone once its parent has reaped it
    await uploadThroughApi(server.app, api, 'hs_transcript', 'after.pdf', await makePdf(['After the loop']));
    expect(await conversionResult(api, 'hs_transcript')).toEqual({ status: 'COMPLETED' });
  });
});
