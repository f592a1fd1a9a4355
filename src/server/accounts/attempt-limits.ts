import type { Kysely } from 'kysely';
import messages from '../../../schemas/auth/messages.json';
import { clear, hit } from '../db/repositories/rate-limit-repository.ts';
import type { Database } from '../db/tables.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { HttpError } from '../lib/http-error.ts';

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

function tooMany(resetAt: Date): HttpError {
  const seconds = Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000));
  const message = fillTemplate(messages.rate_limited, { minutes: Math.ceil(seconds / 60) });
  return new HttpError(429, message, { code: 'RATE_LIMITED', retryAfterSeconds: seconds });
}

/**
 * Counts one attempt, atomically and before the work it guards (a slow hash, a code check),
 * so however many arrive at once, at most the limit go through; throws 429 past it.
 */
export async function consumeAttempt(db: Kysely<Database>, kind: AttemptKind, email: string): Promise<void> {
  const { max, windowMs } = attemptLimits[kind];
  const { hits, resetAt } = await hit(db, key(kind, email), windowMs);
  if (hits > max) throw tooMany(resetAt);
}

/** Counts one attempt and returns how many the window holds now, this one included. */
export async function countAttempt(db: Kysely<Database>, kind: AttemptKind, email: string): Promise<number> {
  return (await hit(db, key(kind, email), attemptLimits[kind].windowMs)).hits;
}

export async function resetAttempts(db: Kysely<Database>, kind: AttemptKind, email: string): Promise<void> {
  await clear(db, key(kind, email));
}
