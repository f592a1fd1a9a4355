/**
 * Tokens travel in a few addresses (a prefill `token`, a `service_token`, the reset link's
 * `id`, a presigned policy's signature), and the reset link's e-mail address (`username`)
 * says who is at work: wherever an address may be written down (a log
 * line, a job's error), their values are replaced. Names are matched case-insensitively.
 * So are the credentials an address may carry before its host.
 */
const TOKEN_PARAMETER = /([?&;](?:[\w-]*token|id|code|signature|x-signature|policy|x-amz-signature|x-amz-credential|username|email)=)[^&#\s"'<>]*/gi;

/** The user name and password of an address (`https://user:password@host/`). */
const CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>]*@/gi;

/** An office key wherever it is written (one sent in an address by mistake is refused, and must not be logged either). */
const OFFICE_KEY = /\bok_[A-Za-z0-9_-]{20,}/g;

export function redactAddress(text: string): string {
  return text.replace(TOKEN_PARAMETER, '$1[redacted]').replace(CREDENTIALS, '$1[redacted]@').replace(OFFICE_KEY, 'ok_[redacted]');
}
