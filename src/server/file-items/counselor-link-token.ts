import { hmac, safeEqual } from '../lib/secrets.ts';

/**
 * A counselor link's token names the request it was sent with, signed with a server secret
 * (`counselor-link-key`): `<request id>.<HMAC-SHA256 of "counselor-link:<id>">`. It names no
 * applicant or item (the request's row does), cannot be made for another request without the
 * secret, and stops working when its request is withdrawn or expires (the row says so).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function counselorLinkToken(secret: string, requestId: string): string {
  return `${requestId}.${hmac(secret, `counselor-link:${requestId}`)}`;
}

/** The request a token names, if its signature holds. */
export function requestOfToken(secret: string, token: unknown): string | undefined {
  if (typeof token !== 'string' || token.length > 200) return undefined;
  const [id, signature, ...rest] = token.split('.');
  if (!id || !signature || rest.length || !UUID.test(id)) return undefined;
  return safeEqual(hmac(secret, `counselor-link:${id}`), signature) ? id : undefined;
}
