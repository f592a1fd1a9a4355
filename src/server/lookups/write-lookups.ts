import type { Kysely } from 'kysely';
import { analyzeLookups, deleteLookupsExcept, upsertLookups, type LookupRow } from '../db/repositories/lookup-repository.ts';
import type { Database } from '../db/tables.ts';
import type { LookupCategory } from './categories.ts';

/** Rows per INSERT: 10 columns each, well under PostgreSQL's 65,535 parameters. */
const BATCH_SIZE = 1000;

export interface LookupWrites {
  inserted: number;
  updated: number;
  /** entries of the category that were not in the list, removed by `replace` */
  removed: number;
}

/**
 * Writes a checked list into one category, in one transaction: new entries are inserted,
 * changed ones updated, the rest left alone, so loading a list twice changes nothing. With
 * `replace`, entries the list no longer has are removed (a licensed list replacing the sample).
 */
export async function writeLookups(
  db: Kysely<Database>, category: LookupCategory, rows: LookupRow[], options: { replace?: boolean } = {},
): Promise<LookupWrites> {
  const writes: LookupWrites = { inserted: 0, updated: 0, removed: 0 };
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < rows.length; start += BATCH_SIZE) {
      const { inserted, updated } = await upsertLookups(trx, rows.slice(start, start + BATCH_SIZE));
      writes.inserted += inserted;
      writes.updated += updated;
    }
    if (options.replace) writes.removed = await deleteLookupsExcept(trx, category, rows.map((row) => row.id));
  });
  if (writes.inserted || writes.updated || writes.removed) await analyzeLookups(db);
  return writes;
}
