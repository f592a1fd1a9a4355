import type { Kysely } from 'kysely';
import { findPrefill } from '../db/repositories/prefill-repository.ts';
import type { Database } from '../db/tables.ts';
import { sha256 } from '../lib/secrets.ts';

/**
 * The answers that staff prefilled for a prospect (spec-decisions 5), by the link's token;
 * undefined for a malformed, unknown, used or expired token.
 */
export async function prefillAnswers(db: Kysely<Database>, token: unknown): Promise<Record<string, string> | undefined> {
  return typeof token === 'string' && token.length >= 20 && token.length <= 100 ? await findPrefill(db, sha256(token)) : undefined;
}
