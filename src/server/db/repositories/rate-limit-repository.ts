import { sql, type Kysely } from 'kysely';
import type { Database } from '../tables.ts';

/**
 * Fixed-window counter kept in the database, so every server instance agrees.
 * Returns the hits in the current window after this one and when the window ends.
 */
export async function hit(db: Kysely<Database>, key: string, windowMs: number): Promise<{ hits: number; resetAt: Date }> {
  const now = new Date();
  const windowStart = new Date(now.getTime() - windowMs);
  const row = await db.insertInto('rate_limits')
    .values({ key, window_started_at: now, hits: 1 })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({
      hits: sql`case when rate_limits.window_started_at <= ${windowStart} then 1 else rate_limits.hits + 1 end`,
      window_started_at: sql`case when rate_limits.window_started_at <= ${windowStart} then ${now} else rate_limits.window_started_at end`,
    }))
    .returning(['hits', 'window_started_at'])
    .executeTakeFirstOrThrow();
  return { hits: row.hits, resetAt: new Date(new Date(row.window_started_at).getTime() + windowMs) };
}

export async function clear(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/**
 * Counters whose window ended count nothing any more: those of each kind (`<kind>:` keys)
 * whose window started before its `before`, and any other whose window started before `otherwise`.
 */
export async function deleteStaleRateLimits(db: Kysely<Database>, before: Record<string, Date>, otherwise: Date): Promise<number> {
  let deleted = 0;
  for (const [kind, date] of Object.entries(before)) {
    const result = await db.deleteFrom('rate_limits').where('key', 'like', `${kind}:%`).where('window_started_at', '<', date).executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  const result = await db.deleteFrom('rate_limits').where('window_started_at', '<', otherwise).executeTakeFirst();
  return deleted + Number(result.numDeletedRows);
}
