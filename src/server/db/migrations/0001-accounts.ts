import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('applicants')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('last_page', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // usernames are e-mail addresses compared case-insensitively
  await sql`create unique index applicants_email_key on applicants (lower(email))`.execute(db);

  await db.schema
    .createTable('account_codes')
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('confirm', 'reset')`))
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('account_codes_pkey', ['applicant_id', 'purpose'])
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_applicant_idx').on('sessions').column('applicant_id').execute();

  await db.schema
    .createTable('logins')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('login_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('logins_applicant_idx').on('logins').column('applicant_id').execute();

  await db.schema
    .createTable('web_status_entries')
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('web_status', 'text', (c) =>
      c.notNull().check(sql`web_status in ('started', 'validating', 'submitted')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('web_status_entries_pkey', ['applicant_id', 'web_status'])
    .execute();

  await db.schema
    .createTable('answers')
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('schema_version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('answers_pkey', ['applicant_id', 'key'])
    .execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['app_secrets', 'rate_limits', 'outbox', 'answers', 'web_status_entries', 'logins', 'sessions', 'account_codes', 'applicants']) {
    await db.schema.dropTable(table).execute();
  }
}
