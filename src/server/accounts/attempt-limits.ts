import type { Kysely } from 'kysely';
import { clear, hit } from '../db/repositories/rate-limit-repository.ts';
import type { Database } from '../db/tables.ts';
import { tooManyRequests } from '../lib/too-many-requests.ts';

/**
 * Per-account limits on the account calls, counted per e-mail address whether or not an
 * account exists (so the limits reveal nothing), in the database (so servers agree).
 * Figures follow OWASP ASVS and AWS Cognito's quotas.
 */
export const attemptLimits = {
  signup: { max: 5, windowMs: 60 * 60_000 },
  resend: { max: 5, windowMs: 60 * 60_000 },
  forgot: { max: 5, windowMs: 60 * 60_000 },
  reset: { max: 10, windowMs: 60 * 60_000 },
  confirm: { max: 15, windowMs: 60 * 60_000 },
  /** wrong confirmation codes before the code is void */
  confirmFailures: { max: 5, windowMs: 60 * 60_000 },
  /** wrong passwords before login is refused for the rest of the window */
  loginFailures: { max: 10, windowMs: 15 * 60_000 },
} as const;

export type AttemptKind = keyof typeof attemptLimits;

function key(kind: AttemptKind, email: string): string {
  return `${kind}:${email.toLowerCase()}`;
}

/**
 * Counts one attempt, atomically and before the work it guards (a slow hash, a code check),
 * so however many arrive at once, at most the limit go through; throws 429 past it.
 */
export async function consumeAttempt(db: Kysely<Database>, kind: AttemptKind, email: string): Promise<void> {
  const { max, windowMs } = attemptLimits[kind];
  const { hits, resetAt } = await hit(db, key(kind, email), windowMs);
  if (hits > max) throw tooManyRequests(resetAt.getTime() - Date.now());
}

/** Counts one attempt and returns how many the window holds now, this one included. */
export async function countAttempt(db: Kysely<Database>, kind: AttemptKind, email: string): Promise<number> {
  return (await hit(db, key(kind, email), attemptLimits[kind].windowMs)).hits;
}

export async function resetAttempts(db: Kysely<Database>, kind: AttemptKind, email: string): Promise<void> {
  await clear(db, key(kind, email));
}
