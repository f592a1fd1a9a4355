import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import documentsText from '../../schemas/documents.json';
import { counselorLinkToken } from '../../src/server/file-items/counselor-link-token.ts';
import { ApiSession } from '../../support/api-session.ts';
import { makePdfWithJavaScript, makeZipBomb } from '../../support/document-fixtures.ts';
import {
  jpegWithTwoFrames, pdfContentBomb, pdfDeepFilterChain, pdfObjectStreamBomb, pdfParserLoop, pdfParserMemory, pngWithDecoyHeader,
} from '../../support/fixtures/bomb-files.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { seedApplicant } from '../../support/seed.ts';
import { defaultDatabaseTarget } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { postFile } from '../../support/uploads.ts';
import { until } from '../../support/until.ts';

/**
 * A counselor's link takes an upload from a stranger: every hostile file the applicant's
 * uploads are tried with goes through the counselor's path too, and meets the same sniffing,
 * worker limits and messages. A refused file leaves the item requested and the link usable.
 */
const messages = documentsText.messages;
const CONVERSION_TIMEOUT_MS = '6000';
const notReal = (extension: string) => messages.not_real_type.replace('{extension}', extension);

describe.each(defaultDatabaseTarget())('a counselor\'s hostile files on $name', (target) => {
  let server: TestServer;
  let applicantId: string;
  let counselor: ApiSession;
  let token: string;

  beforeAll(async () => {
    server = await startTestServerOn(target, { env: { CONVERSION_TIMEOUT_MS } });
    const { id } = await seedApplicant(server.app, { email: `hostile.counselor.${target.name}@example.org`, answers: completeApplication(), status: 'submitted' });
    applicantId = id;
    await server.app.counselorRequests.ask(id, 'transcript', { email: 'counselor@school.example.org', language: 'en' });
    const request = await server.app.db.selectFrom('counselor_requests').select('id').where('applicant_id', '=', id).executeTakeFirstOrThrow();
    const secret = await server.app.secrets.get('counselor-link-key', () => ''); // made by the server as it started
    token = counselorLinkToken(secret, request.id);
    counselor = new ApiSession(server.app);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const headers = () => ({ 'x-counselor-link': token });
  async function send(name: string, bytes: Buffer): Promise<{ status: string; message?: string }> {
    const presigned = await counselor.request<{ fields: Record<string, string> }>('POST', '/api/counselor/presigned-url', {}, headers());
    expect(presigned.status).toBe(200);
    expect((await postFile(server.app, presigned.body.fields, name, bytes)).statusCode).toBe(204);
    const registered = await counselor.request('POST', '/api/counselor/document', { file_key: presigned.body.fields.key, file_name: name }, headers());
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    return until(async () => {
      const { body } = await counselor.request<{ status: string; message?: string }>('GET', '/api/counselor/document', undefined, headers());
      return ['UNPROCESSED', 'IN_PROGRESS'].includes(body.status) ? undefined : body;
    }, `the conversion of ${name} to end`, 60_000);
  }
  const itemState = async () => (await server.app.fileItems.view(applicantId)).items.find((item) => item.id === 'transcript')!.state;

  it.each([
    ['a program named as a PNG', 'photo.png', async () => Buffer.concat([Buffer.from('MZ'), Buffer.alloc(2048, 0x90)]), notReal('PNG')],
    ['a zip bomb named as a Word file', 'transcript.docx', () => makeZipBomb(), messages.docx_too_complex],
    ['a 3 KB PDF whose object stream inflates to 1 GB', 'bomb.pdf', async () => pdfObjectStreamBomb(), messages.pdf_too_much_data],
    ['a PDF whose page content inflates to 1 GB', 'content.pdf', async () => pdfContentBomb(), messages.pdf_too_much_data],
    ['a PDF with a filter chain 12 deep', 'chain.pdf', async () => pdfDeepFilterChain(12), messages.pdf_too_much_data],
    ['a PNG with a decoy header', 'decoy.png', async () => pngWithDecoyHeader(), messages.corrupt],
    ['a JPEG with frames of 1x1 and 8000x8000', 'frames.jpg', async () => jpegWithTwoFrames(), messages.corrupt],
    ['a PDF that holds the parser in a loop', 'loop.pdf', async () => pdfParserLoop(), messages.conversion_too_demanding],
    ['a PDF whose parse outgrows the worker\'s memory', 'memory.pdf', async () => pdfParserMemory(), messages.conversion_too_demanding],
  ])('refuses %s with the applicant\'s message, the item still requested', async (_label, name, make, message) => {
    expect(await send(name, await make())).toEqual({ status: 'FAILED', message });
    expect(await itemState()).toBe('requested');
    // the page says the same as it reloads
    const page = await counselor.request('GET', '/api/counselor/request', undefined, headers());
    expect(page.body).toMatchObject({ status: 'FAILED', message });
  }, 90_000);

  it('refuses a name or size the rules do not take before anything converts', async () => {
    const presigned = await counselor.request<{ fields: Record<string, string> }>('POST', '/api/counselor/presigned-url', {}, headers());
    expect((await postFile(server.app, presigned.body.fields, 'a.png', Buffer.alloc(documentsText.max_bytes + 1, 1))).statusCode).toBe(413);
    expect((await postFile(server.app, presigned.body.fields, 'a.exe', Buffer.from('MZ'))).statusCode).toBe(204);
    const registered = await counselor.request('POST', '/api/counselor/document', { file_key: presigned.body.fields.key, file_name: 'a.exe' }, headers());
    expect([registered.status, (registered.body as { code: string }).code]).toEqual([400, 'BAD_FILE']);
  });

  it('cleans script out of a PDF, and receives the item with it', async () => {
    expect(await send('letter.pdf', await makePdfWithJavaScript())).toEqual({ status: 'COMPLETED' });
    expect(await itemState()).toBe('received');
    const row = await server.app.db.selectFrom('documents').select('pdf_key').where('applicant_id', '=', applicantId).where('answer_key', '=', 'file-item:transcript').executeTakeFirstOrThrow();
    expect(Buffer.from(await server.app.storage.get(row.pdf_key!)).toString('latin1')).not.toMatch(/\/OpenAction|\/JavaScript|app\.alert/);
  }, 60_000);
});
