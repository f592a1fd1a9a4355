import documentsText from '../../../schemas/documents.json';
import { ServerError, messageOf, standardMessage } from '../lib/api-errors.ts';
import { answersStore } from './answers-store.ts';
import { conversionStatus, presignUpload, registerDocument, removeConversion, removeDocument, type ConversionStatus, type Presigned } from './api/documents-api.ts';
import { documentsStore } from './documents-store.ts';
import { flush } from './save-queue.ts';

const POLL_MS = 2000; // spec section 9
const PENDING = new Set(['UNPROCESSED', 'IN_PROGRESS']);

async function postToStorage({ url, fields }: Presigned, file: File): Promise<void> {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.append(name, value);
  body.append('file', file); // last, as S3 requires
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', body, credentials: 'omit' });
  } catch {
    throw new ServerError(standardMessage, 0, 'NETWORK');
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

/** Polls a registered file's conversion to its end: COMPLETED marks the answer; anything else throws why. */
async function followConversion(key: string, file: { name: string; size: number }): Promise<void> {
  documentsStore.set(key, { phase: 'converting', fileName: file.name, fileSize: file.size });
  const result = await conversionResult(key);
  if (result.status !== 'COMPLETED') throw new ServerError(result.message ?? documentsText.messages.conversion_failed, 422, 'CONVERSION_FAILED');
  answersStore.applyFromServer({ [key]: 'ANSWERED' });
  documentsStore.set(key, { phase: 'done', fileName: file.name, fileSize: file.size });
}

/** A failed upload or conversion: the indicator stops, the answer is cleared, the conversion deleted, and the question says why. */
async function reset(key: string, error: unknown): Promise<Outcome> {
  const message = messageOf(error);
  answersStore.applyFromServer({ [key]: '' });
  documentsStore.set(key, { phase: 'idle', error: message });
  await removeConversion(key).catch(() => {});
  return { ok: false, message };
}

/**
 * The upload flow: save the answers and get a presigned POST in parallel, send the file
 * to storage, register its conversion, poll until it ends.
 */
export async function uploadDocument(key: string, file: File): Promise<Outcome> {
  documentsStore.set(key, { phase: 'uploading', fileName: file.name, fileSize: file.size });
  try {
    const [presigned] = await Promise.all([presignUpload(key), flush()]);
    await postToStorage(presigned, file);
    await registerDocument(key, presigned.fields.key ?? '', file.name);
    await followConversion(key, file);
    return { ok: true };
  } catch (error) {
    return reset(key, error);
  }
}

/**
 * Conversions the server still runs when the pages open (a reload, another tab, a new
 * login): each question shows its file converting, polling goes on, and tab switches wait.
 */
export function resumeConversions(conversions: Record<string, { file_name: string; file_size: number }>): void {
  for (const [key, file] of Object.entries(conversions)) {
    if (documentsStore.isBusy([key])) continue; // this tab is already following it
    void followConversion(key, { name: file.file_name, size: file.file_size }).catch((error: unknown) => reset(key, error));
  }
}

/** Deletes the document, its conversion and its answer. */
export async function deleteDocument(key: string): Promise<void> {
  await removeDocument(key);
  answersStore.applyFromServer({ [key]: '' });
  documentsStore.set(key, { phase: 'idle' });
}
