import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Random secrets and their stored forms. Only hashes are stored; tokens travel once. */

/** A 6-digit code from a cryptographic source, leading zeros kept. */
export function randomDigits(length = 6): string {
  return randomInt(0, 10 ** length).toString().padStart(length, '0');
}

/** A 256-bit URL-safe token. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** Keyed hash for low-entropy secrets (6-digit codes): a stolen table cannot be brute-forced offline. */
export function hmac(key: string, value: string): string {
  return createHmac('sha256', key).update(value).digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
