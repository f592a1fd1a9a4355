import documentsText from '../../../schemas/documents.json';
import { ServerError, messageOf, standardMessage } from '../lib/api-errors.ts';
import { failUnlessLeaving } from '../lib/page-leaving.ts';
import type { AnswersStore } from './answers-store.ts';
import { conversionStatus, presignUpload, registerDocument, removeConversion, removeDocument, type ConversionStatus, type Presigned } from './api/documents-api.ts';
import type { DocumentsStore } from './documents-store.ts';

/** The parts of an application session the upload flow works on. */
export interface DocumentSession {
  answers: AnswersStore;
  documents: DocumentsStore;
  flush(): Promise<boolean>;
}

const POLL_MS = 2000; // spec section 9
const PENDING = new Set(['UNPROCESSED', 'IN_PROGRESS']);

export async function postToStorage({ url, fields }: Presigned, file: File): Promise<void> {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.append(name, value);
  body.append('file', file); // last, as S3 requires
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', body, credentials: 'omit' });
  } catch {
    return failUnlessLeaving(new ServerError(standardMessage, 0, 'NETWORK'));
  }
  if (!response.ok) {
    const message = await response.json().then((reply: { message?: unknown }) => (typeof reply.message === 'string' ? reply.message : undefined), () => undefined);
    throw new ServerError(message ?? standardMessage, response.status, 'UPLOAD_FAILED');
  }
}

/** Polls the conversion every 2 s; a failed check counts as FAILED (spec section 4). */
async function conversionResult(key: string): Promise<ConversionStatus> {
  for (;;) {
    let reply: ConversionStatus;
    try {
      reply = await conversionStatus(key);
    } catch (error) {
      return { status: 'FAILED', message: messageOf(error) };
    }
    if (!PENDING.has(reply.status)) return reply;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

type Outcome = { ok: true } | { ok: false; message: string };

/** Polls a registered file's conversion to its end: COMPLETED marks the answer, NOT_ANSWERED leaves it empty; FAILED throws why. */
async function followConversion({ answers, documents }: DocumentSession, key: string, file: { name: string; size: number }): Promise<void> {
  documents.set(key, { phase: 'converting', fileName: file.name, fileSize: file.size });
  const result = await conversionResult(key);
  if (result.status === 'NOT_ANSWERED') {
    // no file under this question any more (deleted in another tab, or a tab switch): polling ends, nothing to clean up
    answers.applyFromServer({ [key]: '' });
    documents.set(key, { phase: 'idle', error: documentsText.messages.not_answered });
    return;
  }
  if (result.status !== 'COMPLETED') throw new ServerError(result.message ?? documentsText.messages.conversion_failed, 422, 'CONVERSION_FAILED');
  answers.applyFromServer({ [key]: 'ANSWERED' });
  documents.set(key, { phase: 'done', fileName: file.name, fileSize: file.size });
}

/** A failed upload or conversion: the indicator stops, the answer is cleared, the conversion deleted, and the question says why. */
async function reset({ answers, documents }: DocumentSession, key: string, error: unknown): Promise<Outcome> {
  const message = messageOf(error);
  answers.applyFromServer({ [key]: '' });
  documents.set(key, { phase: 'idle', error: message });
  await removeConversion(key).catch(() => {});
  return { ok: false, message };
}

/**
 * The upload flow: save the answers and get a presigned POST in parallel, send the file
 * to storage, register its conversion, poll until it ends.
 */
export async function uploadDocument(session: DocumentSession, key: string, file: File): Promise<Outcome> {
  session.documents.set(key, { phase: 'uploading', fileName: file.name, fileSize: file.size });
  session.documents.follow(key);
  try {
    const [presigned] = await Promise.all([presignUpload(key), session.flush()]);
    await postToStorage(presigned, file);
    await registerDocument(key, presigned.fields.key ?? '', file.name);
    await followConversion(session, key, file);
    return { ok: true };
  } catch (error) {
    return reset(session, key, error);
  } finally {
    session.documents.unfollow(key);
  }
}

/**
 * Conversions the server still runs when the pages open (a reload, another tab, a new
 * login): each question shows its file converting, polling goes on, and tab switches wait.
 */
export function resumeConversions(session: DocumentSession, conversions: Record<string, { file_name: string; file_size: number }>): void {
  for (const [key, file] of Object.entries(conversions)) {
    if (!session.documents.follow(key)) continue; // this tab is already following it
    void followConversion(session, key, { name: file.file_name, size: file.file_size })
      .catch((error: unknown) => reset(session, key, error))
      .finally(() => session.documents.unfollow(key));
  }
}

/** Deletes the document, its conversion and its answer. */
export async function deleteDocument({ answers, documents }: DocumentSession, key: string): Promise<void> {
  await removeDocument(key);
  answers.applyFromServer({ [key]: '' });
  documents.set(key, { phase: 'idle' });
}
