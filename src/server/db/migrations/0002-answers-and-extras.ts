import { sql, type Kysely } from 'kysely';

/** Answers hold text or booleans (jsonb); add-another counts and tab choices per applicant. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table answers alter column value type jsonb using to_jsonb(value)`.execute(db);

  await db.schema
    .createTable('add_another')
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('button_id', 'text', (c) => c.notNull())
    .addColumn('num_components', 'integer', (c) => c.notNull().check(sql`num_components between 1 and 10`))
    .addPrimaryKeyConstraint('add_another_pkey', ['applicant_id', 'button_id'])
    .execute();

  await db.schema
    .createTable('tabs')
    .addColumn('applicant_id', 'uuid', (c) => c.notNull().references('applicants.id').onDelete('cascade'))
    .addColumn('tab_id', 'text', (c) => c.notNull())
    .addColumn('chosen_tab', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('tabs_pkey', ['applicant_id', 'tab_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tabs').execute();
  await db.schema.dropTable('add_another').execute();
  await sql`alter table answers alter column value type text using value #>> '{}'`.execute(db);
}
