import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../tables.ts';

export type StoredValue = string | boolean;

/**
 * Answers are stored one row per key, so a save writes only the keys it carries and two
 * tabs cannot erase each other's answers. "" clears a key (the row goes).
 */
export async function writeAnswers(
  db: Kysely<Database> | Transaction<Database>, applicantId: string, values: Record<string, StoredValue>, versions: Record<string, number>,
): Promise<void> {
  const cleared = Object.keys(values).filter((key) => values[key] === '');
  const written = Object.entries(values).filter(([, value]) => value !== '');
  if (cleared.length) {
    await db.deleteFrom('answers').where('applicant_id', '=', applicantId).where('key', 'in', cleared).execute();
  }
  if (written.length) {
    await db.insertInto('answers')
      .values(written.map(([key, value]) => ({
        applicant_id: applicantId,
        key,
        // jsonb: the value travels as JSON text (a bare string is not JSON)
        value: sql<StoredValue>`${JSON.stringify(value)}::jsonb`,
        schema_version: versions[key] ?? 1,
        updated_at: new Date(),
      })))
      .onConflict((conflict) => conflict.columns(['applicant_id', 'key']).doUpdateSet((eb) => ({
        value: eb.ref('excluded.value'),
        schema_version: eb.ref('excluded.schema_version'),
        updated_at: eb.ref('excluded.updated_at'),
      })))
      .execute();
  }
}
