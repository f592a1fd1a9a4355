import { sql, type Kysely } from 'kysely';

/**
 * The browsers that signed an unconfirmed account up (a hash of the random proof in their
 * cookie): only a code typed in one of them keeps that sign-up's password and answers.
 * A double click signs up twice from one browser, so an account may have a few.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signup_browsers')
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('proof_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('signup_browsers_pkey', ['applicant_id', 'proof_hash'])
    .execute();
}
