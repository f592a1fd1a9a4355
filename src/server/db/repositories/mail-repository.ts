import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, MailsTable } from '../tables.ts';

export type MailRow = Pick<Selectable<MailsTable>, 'id' | 'recipient' | 'subject' | 'body' | 'sender_name' | 'after_sent' | 'status'>;

/** A mail waiting to be sent; recipient null for a stand-in that sends nothing. */
export async function insertMail(
  db: Kysely<Database>, mail: { recipient: string | null; subject: string | null; body: string | null; senderName?: string | null; afterSent: unknown },
): Promise<string> {
  const row = await db.insertInto('mails')
    .values({
      recipient: mail.recipient, subject: mail.subject, body: mail.body, sender_name: mail.senderName ?? null, status: 'queued',
      after_sent: mail.afterSent === undefined ? null : sql`${JSON.stringify(mail.afterSent)}::jsonb`,
    })
    .returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Gives a reserved mail its message (sendLater). */
export async function fillMail(db: Kysely<Database>, id: string, mail: { recipient: string; subject: string; body: string; senderName?: string | null; afterSent: unknown }): Promise<void> {
  await db.updateTable('mails')
    .set({
      recipient: mail.recipient, subject: mail.subject, body: mail.body, sender_name: mail.senderName ?? null,
      after_sent: mail.afterSent === undefined ? null : sql`${JSON.stringify(mail.afterSent)}::jsonb`,
    })
    .where('id', '=', id).execute();
}

/** Counts an attempt and returns what to send. */
export function startMailAttempt(db: Kysely<Database>, id: string): Promise<MailRow | undefined> {
  return db.updateTable('mails').set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .returning(['id', 'recipient', 'subject', 'body', 'sender_name', 'after_sent', 'status']).executeTakeFirst();
}

/** Sent or given up: the text (a code, a link) is no longer kept. */
export async function endMail(db: Kysely<Database>, id: string, status: 'sent' | 'failed', error?: string): Promise<void> {
  await db.updateTable('mails')
    .set({ status, subject: null, body: null, after_sent: null, ...(status === 'sent' ? { sent_at: new Date() } : {}), ...(error ? { last_error: error } : {}) })
    .where('id', '=', id).execute();
}

export async function noteMailFailure(db: Kysely<Database>, id: string, error: string): Promise<void> {
  await db.updateTable('mails').set({ last_error: error }).where('id', '=', id).execute();
}

export function mailState(db: Kysely<Database>, id: string): Promise<Pick<Selectable<MailsTable>, 'status' | 'attempts' | 'last_error'> | undefined> {
  return db.selectFrom('mails').select(['status', 'attempts', 'last_error']).where('id', '=', id).executeTakeFirst();
}

/** Mails a day old are done with (their tickets are no longer asked about). */
export async function deleteMailsBefore(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('mails').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
