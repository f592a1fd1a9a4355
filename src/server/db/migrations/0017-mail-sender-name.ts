import type { Kysely } from 'kysely';

/**
 * The name a mail is sent under, in the language of the mail it goes with ("Admisiones de
 * Concordia Heights University"), from schemas/text/mail.json: MAIL_FROM gives the address.
 * Null for a stand-in that sends nothing, and for mails queued before this column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mails').addColumn('sender_name', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mails').dropColumn('sender_name').execute();
}
