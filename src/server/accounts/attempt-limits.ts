import type { Kysely } from 'kysely';
import { clear, hit } from '../db/repositories/rate-limit-repository.ts';
import type { Database } from '../db/tables.ts';
import { tooManyRequests } from '../lib/too-many-requests.ts';
import { normalisedMailbox } from './mailbox.ts';

const HOUR = 60 * 60_000;

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
  /**
   * Calls that mail an inbox (sign-up, resend, forgot-password), counted per inbox however its
   * address is spelled (mailbox.ts): an hour's share, and a day's ceiling that no number of
   * spellings or accounts raises. Two applicants on one inbox (twins) share it.
   */
  mailInbox: { max: 10, windowMs: HOUR },
  mailInboxDay: { max: 20, windowMs: 24 * HOUR },
  /** the same calls from one client network (client-network.ts), whatever inboxes they name (MAIL_PER_NETWORK_PER_HOUR) */
  mailNetwork: { max: 60, windowMs: HOUR },
} as const;

export type AttemptKind = keyof typeof attemptLimits;

/** What is counted: an e-mail address (its spelling: the account), an inbox, or a client network. */
function key(kind: AttemptKind, subject: string): string {
  return `${kind}:${subject.toLowerCase()}`;
}

/**
 * Counts one attempt, atomically and before the work it guards (a slow hash, a code check),
 * so however many arrive at once, at most the limit go through; throws 429 past it.
 */
export async function consumeAttempt(db: Kysely<Database>, kind: AttemptKind, email: string, max: number = attemptLimits[kind].max): Promise<void> {
  const { windowMs } = attemptLimits[kind];
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

/**
 * Counts a call that mails `email`'s inbox, made from `network`, before anything is sent:
 * past the network's hour, the inbox's hour or the inbox's day, 429. Counted whether or not
 * an account exists, so the limit tells nothing about accounts.
 */
export async function consumeMailAllowance(db: Kysely<Database>, email: string, network: string, perNetwork: number = attemptLimits.mailNetwork.max): Promise<void> {
  const inbox = normalisedMailbox(email);
  await consumeAttempt(db, 'mailNetwork', network, perNetwork);
  await consumeAttempt(db, 'mailInbox', inbox);
  await consumeAttempt(db, 'mailInboxDay', inbox);
}
