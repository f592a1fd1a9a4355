import type { Kysely, Selectable } from 'kysely';
import type { Database, OutboxTable } from '../tables.ts';

export type OutboxMessage = Pick<Selectable<OutboxTable>, 'recipient' | 'subject' | 'body'> & { headers?: Record<string, string> | null };

export async function addToOutbox(db: Kysely<Database>, message: OutboxMessage): Promise<void> {
  const { headers, ...rest } = message;
  await db.insertInto('outbox').values({ ...rest, headers: headers ? JSON.stringify(headers) : null }).execute();
}

export function latestOutboxMessage(db: Kysely<Database>, recipient: string): Promise<(OutboxMessage & { created_at: Date }) | undefined> {
  return db.selectFrom('outbox').select(['recipient', 'subject', 'body', 'created_at'])
    .where('recipient', '=', recipient).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
}

/** Mails kept without SMTP hold codes and links long expired after a day. */
export async function deleteOutboxBefore(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('outbox').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The newest mails, oldest of them first (`npm run outbox`). */
export async function recentOutbox(db: Kysely<Database>, recipient: string | undefined, limit: number): Promise<(OutboxMessage & { created_at: Date })[]> {
  let query = db.selectFrom('outbox').select(['recipient', 'subject', 'body', 'headers', 'created_at']).orderBy('created_at', 'desc').limit(limit);
  if (recipient) query = query.where((eb) => eb(eb.fn('lower', ['recipient']), '=', recipient.toLowerCase()));
  return (await query.execute()).reverse();
}
