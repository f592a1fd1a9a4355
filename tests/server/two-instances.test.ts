import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession, outboxCode, STRONG_PASSWORD } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { makePdf } from '../../support/document-fixtures.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { postFile } from '../../support/uploads.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { until } from '../../support/until.ts';
import { conversionCeilingMs } from '../../support/ceilings.ts';
import { documentKeyOf } from '../../src/server/documents/document-service.ts';

/**
 * Two servers on one PostgreSQL, both running jobs, as behind a load balancer: whatever
 * one knows the other must know (sessions, answers, per-account limits, secrets), and a
 * queued job runs on exactly one of them. Stored files are shared through one DATA_DIR
 * here (a shared volume); in production S3_BUCKET plays that part.
 */
const postgres = databaseTargets().find((target) => target.name === 'postgres');

describe.skipIf(!postgres)('two server instances on one PostgreSQL', () => {
  let a: TestServer;
  let b: TestServer;
  let drop: () => Promise<void>;
  const sharedDir = mkdtempSync(join(tmpdir(), 'two-instances-'));
  let counter = 0;
  const email = () => `two${++counter}@example.org`;

  /** The same browser's cookies, presented to the other server. */
  function sameBrowserOn(server: TestServer, session: ApiSession): ApiSession {
    const other = new ApiSession(server.app);
    for (const [name, value] of session.cookies) other.cookies.set(name, value);
    return other;
  }

  beforeAll(async () => {
    const database = await postgres!.create();
    drop = database.drop;
    // started together on an empty database: both migrate (Kysely holds an advisory lock) and both make the shared secrets
    const start = () => startTestServer({ databaseUrl: database.url, env: { DATA_DIR: sharedDir } });
    [a, b] = await Promise.all([start(), start()]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await drop?.();
    rmSync(sharedDir, { recursive: true, force: true });
  });

  it('share the secrets made at start: the upload and service keys are the same on both', () => {
    expect(a.app.uploadSecret).toBe(b.app.uploadSecret);
    expect(a.app.serviceSecret).toBe(b.app.serviceSecret);
  });

  it('a session made on one works on the other, and a logout on either ends it on both', async () => {
    const address = email();
    const onA = await createConfirmedApplicant(a.app, address);
    const onB = sameBrowserOn(b, onA);
    const profile = await onB.get<{ username: string }>('/api/profile');
    expect(profile.status).toBe(200);
    expect(profile.body.username).toBe(address);

    expect((await onB.put('/api/answer', { first_name: 'Grace' })).status).toBe(200);
    expect((await onA.get<{ answer: Record<string, unknown> }>('/api/profile')).body.answer.first_name).toBe('Grace');

    expect((await onB.get('/api/logout')).status).toBe(200);
    expect((await onA.get('/api/profile')).status).toBe(401);
  });

  it('sign-up on one, the code confirmed on the other, login on the first', async () => {
    const address = email();
    const onA = new ApiSession(a.app);
    expect((await onA.post('/public/signup', { username: address, password: STRONG_PASSWORD })).status).toBe(200);
    const code = await outboxCode(a.app, address);
    // the same browser behind a load balancer: its sign-up cookie goes to the other server too
    const onB = new ApiSession(b.app);
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
    expect((await onB.post('/public/confirm', { username: address, code })).status).toBe(200);
    expect((await onA.post('/public/login', { username: address, password: STRONG_PASSWORD })).status).toBe(200);
  });

  it('answers saved through both at the same time are all there', async () => {
    const onA = await createConfirmedApplicant(a.app, email());
    const onB = sameBrowserOn(b, onA);
    const answers = completeApplication();
    const keys = Object.keys(answers);
    // one save per key, all at once, every other one through the other server
    const saves = await Promise.all(keys.map((key, index) => (index % 2 ? onB : onA).put('/api/answer', { [key]: answers[key] })));
    expect(saves.map((save) => save.status)).toEqual(keys.map(() => 200));

    const fromA = (await onA.get<{ answer: Record<string, unknown> }>('/api/profile')).body.answer;
    const fromB = (await onB.get<{ answer: Record<string, unknown> }>('/api/profile')).body.answer;
    expect(fromA).toEqual(fromB);
    for (const key of keys) expect(fromA[key], key).toEqual(answers[key]);
    expect((await onB.post('/api/submit', {})).status).toBe(200);
    expect((await onA.put('/api/answer', { first_name: 'Late' })).status).toBe(409);
  });

  it('counts wrong passwords per account across both servers', async () => {
    const address = email();
    await createConfirmedApplicant(a.app, address);
    for (let attempt = 0; attempt < 10; attempt++) {
      const server = attempt % 2 ? b : a;
      expect((await new ApiSession(server.app).post('/public/login', { username: address, password: 'Wrong-Password-123!' })).status).toBe(400);
    }
    // the limit (10 in 15 minutes) is reached on both, even with the right password
    expect((await new ApiSession(a.app).post('/public/login', { username: address, password: STRONG_PASSWORD })).status).toBe(429);
    expect((await new ApiSession(b.app).post('/public/login', { username: address, password: STRONG_PASSWORD })).status).toBe(429);
  });

  describe('conversions queued on either run exactly once', () => {
    /** file key -> the servers whose conversion read the upload (storage.get is only the job's) */
    const readBy = new Map<string, string[]>();

    beforeAll(() => {
      for (const [name, server] of [['a', a], ['b', b]] as const) {
        const storage = server.app.storage;
        const get = storage.get.bind(storage);
        storage.get = async (key) => {
          readBy.set(key, [...(readBy.get(key) ?? []), name]);
          return get(key);
        };
      }
    });

    /** Presign on one server, send the file to the other, register on either: each step may land anywhere. */
    async function upload(applicant: ApiSession, other: TestServer, answerKey: string, bytes: Buffer): Promise<string> {
      const presigned = await applicant.post<{ fields: Record<string, string> }>('/api/presigned-url', { answer_key: answerKey });
      expect(presigned.status).toBe(200);
      expect((await postFile(other.app, presigned.body.fields, `${answerKey}.pdf`, bytes)).statusCode).toBe(204);
      const registered = await applicant.post(`/api/pdf/document-answer/${answerKey}`, { file_key: presigned.body.fields.key, file_name: `${answerKey}.pdf` });
      expect(registered.status).toBe(200);
      return documentKeyOf(presigned.body.fields.key!); // where a registered upload is kept and read
    }

    async function uploadMany(count: number): Promise<{ fileKeys: string[]; applicants: ApiSession[] }> {
      const fileKeys: string[] = [];
      const applicants: ApiSession[] = [];
      for (let index = 0; index < count / 2; index++) {
        const [home, other] = index % 2 ? [b, a] : [a, b];
        const applicant = await createConfirmedApplicant(home.app, email());
        applicants.push(applicant);
        for (const answerKey of ['hs_transcript', 'supporting_document']) {
          fileKeys.push(await upload(applicant, other, answerKey, await makePdf([`${answerKey} of applicant ${index}`])));
        }
      }
      return { fileKeys, applicants };
    }

    async function waitForConversions(fileKeys: string[]): Promise<void> {
      const rows = await until(async () => {
        const found = await a.app.db.selectFrom('documents').select(['file_key', 'status']).where('file_key', 'in', fileKeys).execute();
        const ended = found.length === fileKeys.length && found.every((row) => row.status === 'COMPLETED' || row.status === 'FAILED');
        return ended ? found : undefined;
      }, 'every conversion to end', 60_000);
      expect(rows.map((row) => row.status)).toEqual(fileKeys.map(() => 'COMPLETED'));
    }

    async function jobsOf(fileKeys: string[]) {
      const rows = await a.app.db.selectFrom('jobs').select(['kind', 'status', 'attempts', 'payload']).where('kind', '=', 'convert_document').execute();
      return rows.filter((row) => fileKeys.includes((row.payload as { fileKey: string }).fileKey));
    }

    /** The jobs, once the queue has recorded how each ended (a document is COMPLETED a moment before its job is marked done). */
    async function finishedJobsOf(fileKeys: string[]) {
      return until(async () => {
        const jobs = await jobsOf(fileKeys);
        return jobs.every((job) => job.status !== 'queued' && job.status !== 'running') ? jobs : undefined;
      }, 'the conversion jobs to end', conversionCeilingMs(a.app.config) * fileKeys.length);
    }

    function expectExactlyOnce(fileKeys: string[], jobs: Awaited<ReturnType<typeof jobsOf>>): void {
      expect(jobs).toHaveLength(fileKeys.length);
      for (const job of jobs) expect({ status: job.status, attempts: job.attempts }).toEqual({ status: 'done', attempts: 1 });
      for (const fileKey of fileKeys) expect(readBy.get(fileKey), fileKey).toHaveLength(1);
    }

    it('20 PDFs queued while both queues wait, then both take jobs: each converted once, by one server', async () => {
      await Promise.all([a.app.jobs.stop(), b.app.jobs.stop()]);
      const { fileKeys, applicants } = await uploadMany(20);
      expect((await jobsOf(fileKeys)).map((job) => job.status)).toEqual(fileKeys.map(() => 'queued'));

      a.app.jobs.start();
      b.app.jobs.start();
      await waitForConversions(fileKeys);
      expectExactlyOnce(fileKeys, await finishedJobsOf(fileKeys));
      const servers = fileKeys.map((fileKey) => readBy.get(fileKey)![0]);
      expect(new Set(servers)).toEqual(new Set(['a', 'b'])); // both did part of the work

      const status = await applicants[0]!.get<{ status: string }>('/api/pdf/document-answer/hs_transcript');
      expect(status.body.status).toBe('COMPLETED');
    });

    it('20 more PDFs while both queues run: still each converted once', async () => {
      const { fileKeys } = await uploadMany(20);
      await waitForConversions(fileKeys);
      expectExactlyOnce(fileKeys, await finishedJobsOf(fileKeys));
    });
  });
});
