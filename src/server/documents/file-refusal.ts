import type documentsText from '../../../schemas/documents.json';

/** Why an uploaded file is refused: the key of the message the applicant sees (schemas/documents.json). */
export type RefusalReason = keyof typeof documentsText.messages;

/**
 * A file that can never convert, whatever the retry: it is not what its name says, it is
 * damaged, or it exceeds a limit. Thrown where the file is examined (in the worker process)
 * and carried back to the job by its reason, which names the message to show.
 */
export class FileRefusal extends Error {
  constructor(readonly reason: RefusalReason, detail?: string) {
    super(detail ?? reason);
  }
}
