import type { Kysely } from 'kysely';
import lookupText from '../../../schemas/text/lookup.json';
import type { FindLookupsQuery } from '../../shared/generated/api-types.ts';
import type { Database } from '../db/tables.ts';
import { HttpError } from '../lib/http-error.ts';
import { findDetails, findSuggestions, type LookupDetails, type LookupItem } from './find-lookups.ts';
import { parseLookupQuery } from './lookup-query.ts';

/** GET /lookup/find of spec section 7: suggestions for typed text, or the record of a chosen one (404 when it is gone). */
export function createLookupService(db: Kysely<Database>) {
  return {
    async find(raw: FindLookupsQuery): Promise<LookupItem[] | LookupDetails> {
      const query = parseLookupQuery(raw as Record<string, unknown>);
      if (query.kind === 'suggestions') return findSuggestions(db, query.category, query.text, query.maxResults);
      const details = await findDetails(db, query.category, query.id);
      if (!details) throw new HttpError(404, lookupText.not_found, { code: 'NOT_FOUND' });
      return details;
    },
  };
}

export type LookupService = ReturnType<typeof createLookupService>;
