import errors from '../../../schemas/text/errors.json';

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
    readonly code?: string,
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
