import errors from '../../../schemas/text/errors.json';
import type { ErrorCode } from '../../shared/generated/api-types.ts';

/**
 * What a failed call says it was: one of the contract's error codes (schemas/api/errors.json),
 * or one of the client's own: no answer, an answer that was not JSON, a refusal by the file
 * storage (S3 answers in XML), a conversion that ended without a PDF.
 */
export type ClientErrorCode = ErrorCode | 'NETWORK' | 'NOT_JSON' | 'UPLOAD_FAILED' | 'CONVERSION_FAILED';

/** The two kinds of failure of spec section 8. */
export class UnauthorizedError extends Error {
  readonly status = 401;
  constructor(message: string = errors.session_invalid) {
    super(message);
    this.name = 'UnauthorizedError';
  }
}

export class ServerError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: ClientErrorCode,
    readonly fieldErrors?: Record<string, string[]>,
    /** the whole JSON answer, for calls that say more than a message */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ServerError';
  }
}

export const standardMessage = errors.standard;

/** The message to show for any error: ours carry the server's text, anything else the standard one. */
export function messageOf(error: unknown): string {
  if (error instanceof ServerError || error instanceof UnauthorizedError) return error.message;
  return standardMessage;
}
