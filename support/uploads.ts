import type { FastifyInstance } from 'fastify';
import type { ApiSession } from './api-session.ts';
import { conversionCeilingMs } from './ceilings.ts';
import { until } from './until.ts';

/** The browser's upload flow through the API: presigned POST, the file, the conversion, its end. */
export async function uploadThroughApi(app: FastifyInstance, api: ApiSession, answerKey: string, fileName: string, bytes: Buffer) {
  const presigned = await api.post<{ url: string; fields: Record<string, string> }>('/api/presigned-url', { answer_key: answerKey });
  if (presigned.status !== 200) throw new Error(`presign failed: ${JSON.stringify(presigned.body)}`);
  const upload = await postFile(app, presigned.body.fields, fileName, bytes);
  if (upload.statusCode !== 204) throw new Error(`upload failed: ${upload.statusCode} ${upload.body}`);
  const registered = await api.post(`/api/pdf/document-answer/${answerKey}`, { file_key: presigned.body.fields.key, file_name: fileName });
  if (registered.status !== 200) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  return presigned.body.fields.key!;
}

export async function postFile(app: FastifyInstance, fields: Record<string, string>, fileName: string, bytes: Buffer, extra: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...fields, ...extra })) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  const request = new Request('http://localhost/uploads', { method: 'POST', body: form });
  return app.inject({
    method: 'POST', url: '/uploads',
    headers: { 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

/**
 * The conversion's status once it has ended (until(): a wait for a state, not a loop of its
 * own), waited for as long as the server's settings let a conversion run (ceilings.ts).
 */
export async function conversionResult(api: ApiSession, answerKey: string, timeoutMs = conversionCeilingMs(api.app.config)): Promise<{ status: string; message?: string }> {
  return until(async () => {
    const { body } = await api.get<{ status: string; message?: string }>(`/api/pdf/document-answer/${answerKey}`);
    return ['UNPROCESSED', 'IN_PROGRESS'].includes(body.status) ? undefined : body;
  }, `the conversion of ${answerKey} to end`, timeoutMs);
}
