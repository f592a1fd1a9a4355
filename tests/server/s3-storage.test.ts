import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Browser } from 'playwright-core';
import { PDFDocument } from '@cantoo/pdf-lib';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import documentsText from '../../schemas/documents.json';
import { loadConfig, type S3Config } from '../../src/server/config.ts';
import { documentKeyOf } from '../../src/server/documents/document-service.ts';
import { sweep } from '../../src/server/jobs/sweep.ts';
import { createS3Storage } from '../../src/server/storage/s3-storage.ts';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { makeImage, makePdf } from '../../support/document-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { conversionResult } from '../../support/uploads.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

/**
 * Storage on S3, against s3rver (an S3-compatible server in this process). s3rver answers
 * GetObject, PutObject, HeadObject, DeleteObject and presigned POSTs like S3, but does not
 * check a POST's policy (key, size, expiry): for those the test reads the policy S3 would
 * enforce, and checks what the server itself enforces again at registration.
 */
const BUCKET = 'admission-documents';
const messages = documentsText.messages;
const folder = mkdtempSync(join(tmpdir(), 's3rver-'));
let s3rver: S3rver;
let endpoint: string;
let server: TestServer;
let browser: Browser;
let counter = 0;

const env = () => ({
  S3_BUCKET: BUCKET, S3_ENDPOINT: endpoint, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER',
});
const s3Config = (): S3Config => loadConfig(env()).s3!;
let bucketClient: S3Client;

async function inBucket(key: string): Promise<boolean> {
  try {
    await bucketClient.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

interface Presigned { url: string; fields: Record<string, string> }

/** What the browser does (src/client/session/upload-document.ts): the fields, then the file, straight to the bucket. */
async function postToBucket({ url, fields }: Presigned, fileName: string, bytes: Buffer): Promise<Response> {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  return fetch(url, { method: 'POST', body });
}

async function presign(api: ApiSession, answerKey: string): Promise<Presigned> {
  const answer = await api.post<Presigned>('/api/presigned-url', { answer_key: answerKey });
  expect(answer.status).toBe(200);
  return answer.body;
}

beforeAll(async () => {
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: folder, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await s3rver.run();
  endpoint = `http://127.0.0.1:${port}`;
  bucketClient = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  server = await startTestServer({ env: env() });
  browser = await workerBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.close();
  bucketClient?.destroy();
  await s3rver?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('S3 storage (against s3rver)', () => {
  it('is chosen when S3_BUCKET is set, and the bucket, only it, joins connect-src', async () => {
    expect(server.app.storage.uploadOrigin).toBe(endpoint);
    const csp = String((await server.app.inject({ method: 'GET', url: '/healthz' })).headers['content-security-policy']);
    expect(csp).toContain(`connect-src 'self' ${endpoint};`);
    // everything else is as strict as without S3
    expect(csp.replace(` ${endpoint}`, '')).toBe(String((await localServerCsp())));
  });

  it('uploads with a presigned POST to the bucket, converts into the bucket, deletes both objects', async () => {
    const api = await createConfirmedApplicant(server.app, `s3-${++counter}@example.org`);
    for (const [answerKey, fileName, bytes] of [
      ['hs_transcript', 'transcript.png', await makeImage(browser, 'png')],
      ['supporting_document', 'letter.pdf', await makePdf(['Letter kept in a bucket'])],
    ] as const) {
      const presigned = await presign(api, answerKey);
      expect(new URL(presigned.url).href).toBe(`${endpoint}/${BUCKET}`);
      expect(Object.keys(presigned.fields).sort()).toEqual(['Policy', 'X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Signature', 'bucket', 'key']);
      const key = presigned.fields.key!;
      expect((await postToBucket(presigned, fileName, bytes)).status).toBe(204);
      expect(await inBucket(key)).toBe(true);

      const registered = await api.post(`/api/pdf/document-answer/${answerKey}`, { file_key: key, file_name: fileName });
      expect(registered.body).toEqual({ status: 'UNPROCESSED' });
      expect(await conversionResult(api, answerKey)).toEqual({ status: 'COMPLETED' });

      const row = await server.app.db.selectFrom('documents').select(['file_key', 'pdf_key', 'file_size'])
        .where('answer_key', '=', answerKey).where('file_key', '=', documentKeyOf(key)).executeTakeFirstOrThrow();
      expect(await inBucket(key)).toBe(false); // moved to the document's own key
      expect(row.file_size).toBe(bytes.length);
      expect(row.pdf_key).toMatch(new RegExp(`^converted/[^/]+/${answerKey}/[0-9a-f-]+\\.pdf$`));
      expect(await inBucket(row.pdf_key!)).toBe(true);
      const pdf = await server.app.storage.get(row.pdf_key!);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

      expect((await api.request('DELETE', `/api/document-answer/${answerKey}`)).body).toEqual({ status: 'NOT_ANSWERED' });
      expect(await inBucket(row.file_key)).toBe(false);
      expect(await inBucket(row.pdf_key!)).toBe(false);
    }
    expect((await api.get('/api/document-answer')).body).toEqual({});
  });

  it('presigns exactly one key, 1 byte to the limit, for 5 minutes; the server refuses an oversize object at registration', async () => {
    const api = await createConfirmedApplicant(server.app, `s3-${++counter}@example.org`);
    const before = Date.now();
    const presigned = await presign(api, 'supporting_document');
    const policy = JSON.parse(Buffer.from(presigned.fields.Policy!, 'base64').toString('utf8')) as { expiration: string; conditions: unknown[] };
    expect(policy.conditions).toContainEqual(['content-length-range', 1, documentsText.max_bytes]);
    expect(policy.conditions).toContainEqual({ key: presigned.fields.key });
    expect(policy.conditions).toContainEqual({ bucket: BUCKET });
    // no starts-with: the key is exact, and no other field (acl, Content-Type, ...) may be added
    expect(JSON.stringify(policy.conditions)).not.toContain('starts-with');
    const expires = Date.parse(policy.expiration) - before;
    expect(expires).toBeGreaterThan(290_000);
    expect(expires).toBeLessThanOrEqual(301_000);

    // s3rver stores what real S3 refuses (the policy's size range): registration checks the stored size
    const key = presigned.fields.key!;
    expect((await postToBucket(presigned, 'big.pdf', Buffer.alloc(documentsText.max_bytes + 1, 0x25))).status).toBe(204);
    const refused = await api.post('/api/pdf/document-answer/supporting_document', { file_key: key, file_name: 'big.pdf' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: messages.too_large, code: 'BAD_FILE' });
    expect(await inBucket(key)).toBe(false); // removed, never converted
    expect(await inBucket(documentKeyOf(key))).toBe(false);
    expect((await api.get('/api/pdf/document-answer/supporting_document')).body).toEqual({ status: 'NOT_ANSWERED' });

    // a key never uploaded, and another applicant's key, are refused too
    const unused = await presign(api, 'supporting_document');
    expect((await api.post('/api/pdf/document-answer/supporting_document', { file_key: unused.fields.key, file_name: 'a.pdf' })).body)
      .toMatchObject({ code: 'FILE_MISSING' });
    const other = await createConfirmedApplicant(server.app, `s3-${++counter}@example.org`);
    const theirs = await presign(other, 'supporting_document');
    expect((await postToBucket(theirs, 'a.pdf', await makePdf())).status).toBe(204);
    expect((await api.post('/api/pdf/document-answer/supporting_document', { file_key: theirs.fields.key, file_name: 'a.pdf' })).status).toBe(403);
    expect(await inBucket(theirs.fields.key!)).toBe(true);
  });

  it('converts the file it checked: a second POST to the upload\'s key after registration is never read, and the sweep removes it', async () => {
    const api = await createConfirmedApplicant(server.app, `s3-${++counter}@example.org`);
    const presigned = await presign(api, 'supporting_document');
    const key = presigned.fields.key!;
    const checked = await makePdf(['The letter that was checked']);
    expect((await postToBucket(presigned, 'letter.pdf', checked)).status).toBe(204);
    expect((await api.post('/api/pdf/document-answer/supporting_document', { file_key: key, file_name: 'letter.pdf' })).body).toEqual({ status: 'UNPROCESSED' });
    // S3 takes the same presigned POST again until it expires: the swap lands at the upload's key only
    const swapped = await makePdf(['Swapped in after the check', 'a second page', 'a third page']);
    expect((await postToBucket(presigned, 'letter.pdf', swapped)).status).toBe(204);
    expect(await conversionResult(api, 'supporting_document')).toEqual({ status: 'COMPLETED' });
    // registering the same upload again queues nothing and reads nothing from the upload's key
    expect((await api.post('/api/pdf/document-answer/supporting_document', { file_key: key, file_name: 'letter.pdf' })).body).toEqual({ status: 'COMPLETED' });
    const row = await server.app.db.selectFrom('documents').select(['file_key', 'pdf_key', 'file_size']).where('file_key', '=', documentKeyOf(key)).executeTakeFirstOrThrow();
    expect(row.file_size).toBe(checked.length);
    expect(Buffer.compare(await server.app.storage.get(row.file_key), checked)).toBe(0);
    expect((await PDFDocument.load(await server.app.storage.get(row.pdf_key!))).getPageCount()).toBe(1);

    // once the POST has expired, the sweep removes what the swap left, and keeps the document
    expect(await inBucket(key)).toBe(true);
    await server.app.db.updateTable('upload_slots').set({ expires_at: new Date(Date.now() - 60 * 60_000) }).where('key', '=', key).execute();
    await sweep({ db: server.app.db, storage: server.app.storage, log: server.app.log, sessionIdleMs: server.app.sessions.idleMs });
    expect(await inBucket(key)).toBe(false);
    expect(await inBucket(row.file_key)).toBe(true);
  });

  it('moves an object as it is at that moment, and says when there is nothing to move', async () => {
    const storage = createS3Storage(s3Config());
    const from = `uploads/unit/${Date.now()}/moved.bin`;
    const to = from.replace(/^uploads/, 'documents');
    expect(await storage.move(from, to)).toBe(false);
    await storage.put(from, Buffer.from('first'), 'application/octet-stream');
    expect(await storage.move(from, to)).toBe(true);
    await storage.put(from, Buffer.from('second'), 'application/octet-stream');
    expect((await storage.get(to)).toString()).toBe('first');
    expect((await storage.get(from)).toString()).toBe('second');
    await storage.delete(from);
    await storage.delete(to);
  });

  it('puts, gets, sizes, checks and deletes objects; confines keys', async () => {
    const storage = createS3Storage(s3Config());
    const key = `uploads/unit/${Date.now()}/file.bin`;
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.size(key)).toBeUndefined();
    await expect(storage.get(key)).rejects.toThrow();

    await storage.put(key, new Uint8Array([1, 2, 3, 4, 5]), 'application/octet-stream');
    expect(await storage.exists(key)).toBe(true);
    expect(await storage.size(key)).toBe(5);
    expect([...await storage.get(key)]).toEqual([1, 2, 3, 4, 5]);
    await storage.put(key, Buffer.from('replaced'), 'text/plain');
    expect((await storage.get(key)).toString()).toBe('replaced');

    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    await storage.delete(key); // deleting what is gone is fine

    for (const bad of ['../outside', 'uploads/../../etc/passwd', '/absolute', 'a//b', 'with space', 'uploads/%2e%2e/x', '', 'uploads/x?versionId=1']) {
      await expect(storage.get(bad), bad).rejects.toThrow(/refused object key/);
      await expect(storage.put(bad, new Uint8Array([1]), 'text/plain'), bad).rejects.toThrow(/refused object key/);
      await expect(storage.exists(bad), bad).rejects.toThrow(/refused object key/);
      await expect(storage.delete(bad), bad).rejects.toThrow(/refused object key/);
      await expect(storage.presignPost(bad, { maxBytes: 10, expiresInSeconds: 60 }), bad).rejects.toThrow(/refused object key/);
    }
  });

  it('reads its configuration from the environment', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig({ S3_BUCKET: 'b' }).s3).toEqual({ bucket: 'b', endpoint: undefined, region: 'us-east-1', credentials: undefined, forcePathStyle: false });
    expect(loadConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9000/', S3_REGION: 'eu-west-2', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }).s3)
      .toEqual({ bucket: 'b', endpoint: 'http://127.0.0.1:9000', region: 'eu-west-2', credentials: { accessKeyId: 'k', secretAccessKey: 's' }, forcePathStyle: true });
    expect(loadConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'https://s3.example.org', S3_FORCE_PATH_STYLE: 'false' }).s3!.forcePathStyle).toBe(false);
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(/go together/);
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE/);
    // on AWS the browser posts to the bucket's own host
    expect(createS3Storage({ ...loadConfig({ S3_BUCKET: 'my-bucket', S3_REGION: 'eu-west-2' }).s3!, credentials: { accessKeyId: 'k', secretAccessKey: 's' } }).uploadOrigin)
      .toBe('https://my-bucket.s3.eu-west-2.amazonaws.com');
  });
});

/** The policy of a server on local storage, for comparison. */
async function localServerCsp(): Promise<string> {
  const local = await startTestServer({ listen: false });
  try {
    return String((await local.app.inject({ method: 'GET', url: '/healthz' })).headers['content-security-policy']);
  } finally {
    await local.close();
  }
}
