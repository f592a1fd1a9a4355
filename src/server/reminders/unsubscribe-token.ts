import { hmac, safeEqual } from '../lib/secrets.ts';

/**
 * A reminder's unsubscribe token names the reminder it was sent with, signed with a server
 * secret: it names no applicant (the reminder's row does), cannot be made for another
 * reminder without the secret, and is spent once the applicant turns reminders back on
 * after using it (reminder-service.ts). `<reminder id>.<HMAC-SHA256 of "unsubscribe:<id>">`.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function unsubscribeToken(secret: string, reminderId: string): string {
  return `${reminderId}.${hmac(secret, `unsubscribe:${reminderId}`)}`;
}

/** The reminder a token names, if its signature holds. */
export function reminderOfToken(secret: string, token: unknown): string | undefined {
  if (typeof token !== 'string' || token.length > 200) return undefined;
  const [id, signature, ...rest] = token.split('.');
  if (!id || !signature || rest.length || !UUID.test(id)) return undefined;
  return safeEqual(hmac(secret, `unsubscribe:${id}`), signature) ? id : undefined;
}
