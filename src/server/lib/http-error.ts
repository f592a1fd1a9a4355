import type { ErrorCode } from '../../shared/generated/api-types.ts';
import type { FieldErrors } from '../../shared/validation/field-errors.ts';

/** An error the client is meant to see: its status, message and, for forms, the field errors. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details: {
      code?: ErrorCode; errors?: FieldErrors; pages?: Record<string, string[]>; retryAfterSeconds?: number;
      /** what is stored, for a write refused because its page showed something else */
      current?: Record<string, string | number | boolean>;
    } = {},
  ) {
    super(message);
  }
}
