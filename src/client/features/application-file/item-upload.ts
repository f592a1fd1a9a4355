import documentsText from '../../../../schemas/documents.json';
import { documentRules, fileProblem, formatFileSize } from '../../../shared/documents/file-rules.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { messageOf } from '../../lib/api-errors.ts';
import { postToStorage } from '../../session/upload-document.ts';

/** What a file must be, said with the chooser (WCAG 3.3.2) rather than only once a file is refused. */
export const FILE_RULES_TEXT = fillTemplate(documentRules.messages.rules, {
  types: documentRules.extensions.map((extension) => `.${extension}`).join(', '),
  size: formatFileSize(documentRules.max_bytes),
  length: String(documentRules.max_name_length),
});

/** The accept attribute of an item's chooser: the types the rules take. */
export const ACCEPTED_TYPES = documentRules.extensions.map((extension) => `.${extension}`).join(',');

export type UploadPhase = 'uploading' | 'converting';
type Status = { status: string; message?: string };

/** The calls of one upload path (the applicant's item, the counselor's link): the same pipeline as a question's document. */
export interface ItemUploadCalls {
  presign(): Promise<{ url: string; fields: Record<string, string> }>;
  register(fileKey: string, fileName: string): Promise<Status>;
  status(): Promise<Status>;
}

const POLL_MS = 2000; // spec section 9, as a question's document
const PENDING = new Set(['UNPROCESSED', 'IN_PROGRESS']);

/**
 * Checks the file with the rules, gets a presigned POST, sends the file, registers it and polls
 * its conversion to the end: ok, or the message the applicant's own upload would show.
 */
export async function uploadItemFile(file: File, calls: ItemUploadCalls, onPhase: (phase: UploadPhase) => void): Promise<{ ok: true } | { ok: false; message: string }> {
  const problem = fileProblem({ name: file.name, size: file.size });
  if (problem) return { ok: false, message: problem };
  try {
    onPhase('uploading');
    const presigned = await calls.presign();
    await postToStorage(presigned, file);
    let result = await calls.register(presigned.fields.key ?? '', file.name);
    onPhase('converting');
    while (PENDING.has(result.status)) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      result = await calls.status();
    }
    if (result.status === 'COMPLETED') return { ok: true };
    return { ok: false, message: result.message ?? documentsText.messages.conversion_failed };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}
