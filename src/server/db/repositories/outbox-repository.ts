import type { Kysely } from 'kysely';
import type { Database } from '../tables.ts';

export interface OutboxMessage {
  recipient: string;
  subject: string;
  body: string;
}

export async function addToOutbox(db: Kysely<Database>, message: OutboxMessage): Promise<void> {
  await db.insertInto('outbox').values(message).execute();
}

export function latestOutboxMessage(db: Kysely<Database>, recipient: string): Promise<(OutboxMessage & { created_at: Date }) | undefined> {
  return db.selectFrom('outbox').select(['recipient', 'subject', 'body', 'created_at'])
    .where('recipient', '=', recipient).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
}
