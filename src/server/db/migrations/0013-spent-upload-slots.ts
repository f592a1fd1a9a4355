import type { Kysely } from 'kysely';

/**
 * A registered upload is moved to the document's own key, but S3 accepts its presigned POST
 * until it expires: the slot stays, marked spent, so that no later POST is written (local
 * storage) or read, and the sweep removes whatever such a POST left at the upload key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('upload_slots').addColumn('spent_at', 'timestamptz').execute();
}
