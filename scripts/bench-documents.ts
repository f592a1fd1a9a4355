/**
 * `npm run bench:documents`: how long documents take, on this machine.
 *
 * 1. The conversion itself, as the job does it: PNG and JPEG in the image worker thread,
 *    PDFs through normalisePdf, Word files through the warm LibreOffice (checkDocx, the
 *    file written, converted over UNO, read back).
 * 2. End to end on a real server (embedded PGlite): from registering an uploaded file
 *    (POST /api/pdf/document-answer/:key) until its status is COMPLETED.
 * 3. The application PDF of a fully answered application with three documents: from
 *    GET /api/pdf until it reports COMPLETED, with the server's warm Chromium.
 *
 * Each kind: one cold run (reported apart), then --runs warm ones (median and p95). It
 * also checks that one soffice and one Chromium serve every warm run.
 *
 *   npm run bench:documents [-- --runs 12 --no-build]
 */
import { execSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { ImageConverter } from '../src/server/documents/image-converter.ts';
import { imageSize } from '../src/server/documents/image-size.ts';
import { LibreOfficeConverter } from '../src/server/documents/libreoffice.ts';
import { normalisePdf } from '../src/server/documents/pdf-normalise.ts';
import { checkDocx, type DocumentKind } from '../src/server/documents/sniff.ts';
import { findExecutable } from '../src/server/lib/find-executable.ts';
import { ChromiumPrinter } from '../src/server/pdf/chromium-printer.ts';
import { signServiceToken } from '../src/server/pdf/service-token.ts';
import { form } from '../src/shared/form/form-model-data.ts';
import { completeApplication } from '../tests/fixtures/complete-application.ts';
import { createConfirmedApplicant, type ApiSession } from '../tests/helpers/api-session.ts';
import { launchBrowser } from '../tests/helpers/browser.ts';
import { makeDocx, makeImage, makePdf } from '../tests/helpers/document-fixtures.ts';
import { startTestServer } from '../tests/helpers/test-server.ts';
import { postFile } from '../tests/helpers/uploads.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '12' }, 'no-build': { type: 'boolean', default: false } } });
const RUNS = Math.max(10, Number(values.runs) || 12);
/** how often the bench asks for a status; the times come from the database row, not from the polling */
const POLL_MS = 100;
const KINDS: DocumentKind[] = ['png', 'jpeg', 'pdf', 'docx'];
const TARGET_MS: Record<DocumentKind | 'application', number> = { png: 300, jpeg: 300, pdf: 300, docx: 5000, application: 3000 };
const FILES: Record<DocumentKind, { answerKey: string; name: string }> = {
  png: { answerKey: 'hs_transcript', name: 'transcript.png' },
  jpeg: { answerKey: 'activ_resume', name: 'resume.jpg' },
  pdf: { answerKey: 'supporting_document', name: 'letter.pdf' },
  docx: { answerKey: 'hs_transcript', name: 'transcript.docx' },
};

interface Series { cold: number; warm: number[] }

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`);
const summary = (series: Series) => `${ms(percentile(series.warm, 50))} / ${ms(percentile(series.warm, 95))}`;

async function timed(action: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await action();
  return performance.now() - start;
}

async function series(action: (run: number) => Promise<number>): Promise<Series> {
  const cold = await action(0);
  const warm: number[] = [];
  for (let run = 1; run <= RUNS; run++) warm.push(await action(run));
  return { cold, warm };
}

/** Processes started by this one (and by its children), by name: to see that converters stay warm. */
function descendants(): { pid: number; ppid: number; name: string }[] {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
      names.set(Number(entry), name);
    } catch {
      // gone meanwhile
    }
  }
  const isOurs = (pid: number): boolean => {
    for (let current = parents.get(pid); current !== undefined && current > 1; current = parents.get(current)) {
      if (current === process.pid) return true;
    }
    return false;
  };
  return [...parents.keys()].filter(isOurs).map((pid) => ({ pid, ppid: parents.get(pid)!, name: names.get(pid)! }));
}

/**
 * The long-lived converter processes: soffice, and Chromium's browser process (not its
 * renderers, which come and go with each print): the matching processes whose parent does not match.
 */
function converterPids(pattern: RegExp): number[] {
  const all = descendants();
  const matching = new Set(all.filter((entry) => pattern.test(entry.name)).map((entry) => entry.pid));
  return all.filter((entry) => matching.has(entry.pid) && !matching.has(entry.ppid)).map((entry) => entry.pid).sort();
}

async function fixtures(): Promise<Record<DocumentKind, Buffer>> {
  const browser = await launchBrowser();
  try {
    return {
      png: await makeImage(browser, 'png'),
      jpeg: await makeImage(browser, 'jpeg'),
      pdf: await makePdf(['Letter of recommendation', 'From a teacher who knows the applicant well.'], 3),
      // three pages of text, like a personal statement
      docx: await makeDocx(Array.from({ length: 60 }, (_, index) => `Paragraph ${index + 1}: I would like to study Biology because the living world keeps surprising me.`)),
    };
  } finally {
    await browser.close();
  }
}

/** Part 1: the converters, called as the conversion job calls them (conversion-job.ts toPdf). */
async function converterTimes(files: Record<DocumentKind, Buffer>) {
  const workDir = mkdtempSync(join(tmpdir(), 'bench-documents-work-'));
  const images = new ImageConverter();
  const office = new LibreOfficeConverter({ sofficePath: findExecutable(process.env.SOFFICE_PATH, ['soffice', 'libreoffice']), workDir, timeoutMs: 60_000 });
  const check = async (pdf: Uint8Array) => {
    await PDFDocument.load(pdf); // the job checks every result
  };
  const conversions: Record<DocumentKind, () => Promise<unknown>> = {
    png: async () => {
      imageSize(files.png, 'png');
      await check(await images.convert(files.png, 'png'));
    },
    jpeg: async () => {
      imageSize(files.jpeg, 'jpeg');
      await check(await images.convert(files.jpeg, 'jpeg'));
    },
    pdf: async () => check(await normalisePdf(files.pdf)),
    docx: async () => {
      if (await checkDocx(files.docx, { maxEntries: 1000, maxInflatedBytes: 50 * 1024 * 1024 })) throw new Error('docx refused');
      const base = join(workDir, `${Math.random().toString(36).slice(2)}`);
      await writeFile(`${base}.docx`, files.docx);
      await office.convert(`${base}.docx`, `${base}.pdf`);
      await check(await readFile(`${base}.pdf`));
      await rm(`${base}.docx`, { force: true });
      await rm(`${base}.pdf`, { force: true });
    },
  };
  const result = {} as Record<DocumentKind, Series>;
  let sofficeReused = true;
  try {
    for (const kind of KINDS) {
      let soffice: number[] = [];
      result[kind] = await series(async (run) => {
        const elapsed = await timed(conversions[kind]);
        if (kind === 'docx') {
          const now = converterPids(/^soffice/);
          if (run === 1) soffice = now;
          else if (run > 1 && (now.length !== 1 || now.join() !== soffice.join())) sofficeReused = false;
        }
        return elapsed;
      });
    }
  } finally {
    office.stop();
    await images.close();
    rmSync(workDir, { recursive: true, force: true });
  }
  return { result, sofficeReused };
}

async function waitFor(api: ApiSession, url: string, until: (status: string) => boolean, timeoutMs = 120_000): Promise<{ status: string; message?: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api.get<{ status: string; message?: string }>(url);
    if (until(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`${url} still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const ended = (status: string) => !['UNPROCESSED', 'IN_PROGRESS'].includes(status);

type Server = Awaited<ReturnType<typeof startTestServer>>;

async function applicantId(server: Server, email: string): Promise<string> {
  return (await server.app.db.selectFrom('applicants').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
}

/**
 * Uploads with the presigned POST (not timed), then times registration until COMPLETED:
 * from just before POST /api/pdf/document-answer/:key to the moment the job wrote COMPLETED
 * (the row's updated_at, written by this process), so the polling does not count.
 */
async function convertThroughApi(server: Server, api: ApiSession, id: string, kind: DocumentKind, bytes: Buffer, answerKey = FILES[kind].answerKey): Promise<number> {
  const { name } = FILES[kind];
  const presigned = await api.post<{ fields: Record<string, string> }>('/api/presigned-url', { answer_key: answerKey });
  const upload = await postFile(server.app, presigned.body.fields, name, bytes);
  if (upload.statusCode !== 204) throw new Error(`upload failed: ${upload.statusCode}`);
  const start = Date.now();
  const registered = await api.post(`/api/pdf/document-answer/${answerKey}`, { file_key: presigned.body.fields.key, file_name: name });
  if (registered.status !== 200) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  const result = await waitFor(api, `/api/pdf/document-answer/${answerKey}`, ended);
  if (result.status !== 'COMPLETED') throw new Error(`${kind} conversion ${result.status}: ${result.message}`);
  const row = await server.app.db.selectFrom('documents').select('updated_at').where('applicant_id', '=', id).where('answer_key', '=', answerKey).executeTakeFirstOrThrow();
  return new Date(row.updated_at).getTime() - start;
}

async function main(): Promise<void> {
  if (!values['no-build']) execSync('node scripts/ensure-build.mjs', { stdio: 'inherit' });
  console.log(`Node.js ${process.version}, ${cpus().length} cores, load ${loadavg().map((value) => value.toFixed(2)).join(' ')}; ${RUNS} warm runs per kind after one cold run\n`);
  const files = await fixtures();
  console.log(`files: PNG ${files.png.length} B (1200x900), JPEG ${files.jpeg.length} B, PDF ${files.pdf.length} B (3 pages), DOCX ${files.docx.length} B (60 paragraphs)`);

  console.log('\n1. conversion (the converters as the job calls them)...');
  const { result: converters, sofficeReused } = await converterTimes(files);

  console.log('2. end to end on a real server, and 3. the application PDF...');
  const server = await startTestServer();
  const endToEnd = {} as Record<DocumentKind, Series>;
  let application: Series;
  let printing: Series;
  let applicationPages = 0;
  let applicationBytes = 0;
  let chromiumReused = true;
  let serverSofficeReused = true;
  try {
    const api = await createConfirmedApplicant(server.app, 'bench-documents@example.org');
    const id = await applicantId(server, 'bench-documents@example.org');
    for (const kind of KINDS) {
      let soffice: number[] = [];
      endToEnd[kind] = await series(async (run) => {
        const elapsed = await convertThroughApi(server, api, id, kind, files[kind]);
        if (kind === 'docx') {
          const now = converterPids(/^soffice/);
          if (run === 1) soffice = now;
          else if (run > 1 && (now.length !== 1 || now.join() !== soffice.join())) serverSofficeReused = false;
        }
        return elapsed;
      });
    }

    // a complete application with three converted documents (a PNG, a Word file, a PDF)
    const applicant = await createConfirmedApplicant(server.app, 'bench-application@example.org');
    const owner = await applicantId(server, 'bench-application@example.org');
    await applicant.put('/api/answer', { ...completeApplication(), hs_ceeb: '141234' });
    await applicant.put('/api/tabs', { tab_id: 'hs_classes_tabs', chosen_tab: 'transcript' });
    await applicant.put('/api/tabs', { tab_id: 'activities_tabs', chosen_tab: 'resume' });
    await convertThroughApi(server, applicant, owner, 'png', files.png, 'hs_transcript');
    await convertThroughApi(server, applicant, owner, 'docx', files.docx, 'activ_resume');
    await convertThroughApi(server, applicant, owner, 'pdf', files.pdf, 'supporting_document');
    const attached = await applicant.get<Record<string, unknown>>('/api/document-answer');
    if (Object.keys(attached.body).length !== 3) throw new Error(`expected three documents, got ${JSON.stringify(attached.body)}`);

    let chromium: number[] = [];
    application = await series(async (run) => {
      // a changed answer: the next GET /api/pdf makes a new PDF
      await applicant.put('/api/answer', { first_name: `Ada${run}` });
      const start = Date.now();
      const first = await applicant.get<{ status: string }>('/api/pdf');
      if (first.body.status !== 'UNPROCESSED') throw new Error(`GET /api/pdf answered ${first.body.status}, not a new PDF`);
      const done = await waitFor(applicant, '/api/pdf', ended);
      const row = await server.app.db.selectFrom('application_pdfs').select('updated_at').where('applicant_id', '=', owner).executeTakeFirstOrThrow();
      const elapsed = new Date(row.updated_at).getTime() - start;
      if (done.status !== 'COMPLETED') {
        const job = await server.app.db.selectFrom('jobs').select('last_error').where('kind', '=', 'application_pdf').orderBy('created_at', 'desc').executeTakeFirst();
        throw new Error(`application PDF ${done.status}: ${done.message} (${job?.last_error})`);
      }
      const now = converterPids(/^(chromium|chrome)$/);
      if (run === 1) chromium = now;
      else if (run > 1 && (now.length !== 1 || now.join() !== chromium.join())) chromiumReused = false;
      return elapsed;
    });
    const pdf = await server.app.applicationPdf.file(owner);
    applicationBytes = pdf?.length ?? 0;
    applicationPages = pdf ? (await PDFDocument.load(pdf)).getPageCount() : 0;

    // of which printing the three service-view pages (a second warm Chromium, the same calls as the job)
    const printer = new ChromiumPrinter(findExecutable(process.env.CHROMIUM_PATH, ['chromium', 'chromium-browser', 'google-chrome']));
    try {
      const token = signServiceToken(server.app.serviceSecret, owner, 10 * 60_000);
      const base = `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}`;
      const urls = form.pageOrder.map((page) => `${base}${form.pages[page].path}?service_token=${encodeURIComponent(token)}`);
      printing = await series(() => timed(() => printer.print(urls, '.page-form-service [data-section]', 30_000)));
    } finally {
      await printer.close();
    }
  } finally {
    await server.close();
  }

  const verdict = (value: number, target: number) => (value <= target ? 'met' : `MISSED by ${ms(value - target)}`);
  console.log('\n| kind | conversion: cold | conversion: median / p95 | end to end: cold | end to end: median / p95 | target (p95) |');
  console.log('|---|---|---|---|---|---|');
  for (const kind of KINDS) {
    const p95 = Math.max(percentile(converters[kind].warm, 95), percentile(endToEnd[kind].warm, 95));
    console.log(`| ${kind} | ${ms(converters[kind].cold)} | ${summary(converters[kind])} | ${ms(endToEnd[kind].cold)} | ${summary(endToEnd[kind])} | ${ms(TARGET_MS[kind])}: ${verdict(p95, TARGET_MS[kind])} |`);
  }
  console.log(`\n| application PDF (${applicationPages} pages, ${Math.round(applicationBytes / 1024)} KB) | cold | median / p95 | target (p95) |`);
  console.log('|---|---|---|---|');
  console.log(`| GET /api/pdf until COMPLETED | ${ms(application!.cold)} | ${summary(application!)} | ${ms(TARGET_MS.application)}: ${verdict(percentile(application!.warm, 95), TARGET_MS.application)} |`);
  console.log(`| of which printing the 3 pages | ${ms(printing!.cold)} | ${summary(printing!)} | |`);
  console.log(`\nwarm converters: one soffice for every warm Word conversion: ${sofficeReused && serverSofficeReused ? 'yes' : 'NO'}; one Chromium for every warm application PDF: ${chromiumReused ? 'yes' : 'NO'}`);
  console.log('end to end: from the API call to the COMPLETED row (the job queue taking the job, reading and writing storage, the database); the browser learns it at its next poll.');
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
