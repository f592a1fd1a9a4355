/**
 * Tokens travel in a few addresses (a prefill `token`, a `service_token`, the reset link's
 * `id`, a presigned policy's signature): wherever an address may be written down (a log
 * line, a job's error), their values are replaced. Names are matched case-insensitively.
 */
const TOKEN_PARAMETER = /([?&;](?:[\w-]*token|id|code|signature|x-signature|policy|x-amz-signature|x-amz-credential)=)[^&#\s"'<>]*/gi;

export function redactAddress(text: string): string {
  return text.replace(TOKEN_PARAMETER, '$1[redacted]');
}
