import type { Kysely } from 'kysely';
import messages from '../../../schemas/auth/messages.json';
import { findPrefill } from '../db/repositories/prefill-repository.ts';
import type { Database } from '../db/tables.ts';
import { HttpError } from '../lib/http-error.ts';
import { sha256 } from '../lib/secrets.ts';

/**
 * The answers that staff prefilled for a prospect (spec-decisions 5), by the link's token;
 * undefined for a malformed, unknown, used or expired token.
 */
async function prefillAnswers(db: Kysely<Database>, token: unknown): Promise<Record<string, string> | undefined> {
  return typeof token === 'string' && token.length >= 20 && token.length <= 100 ? await findPrefill(db, sha256(token)) : undefined;
}

export function createPrefillService(db: Kysely<Database>) {
  return {
    /** GET /public/tmp: 404 for a token that gives nothing, and the visitor gets an empty form. */
    async answers(token: unknown): Promise<{ answer: Record<string, string> }> {
      const answers = await prefillAnswers(db, token);
      if (!answers) throw new HttpError(404, messages.not_found, { code: 'NOT_FOUND' });
      return { answer: answers };
    },
  };
}

export type PrefillService = ReturnType<typeof createPrefillService>;
