import { sql, type Kysely } from 'kysely';

/**
 * Converter turns shared by what is scarce, not by account: a job names the client
 * network it came from (`network`) beside its `owner` (now the applicant's inbox), and the
 * queue serves both in turn and runs few jobs of either at once. Both kinds of key keep
 * their last turn in `job_owners`, whose rows the claims lock.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table jobs add column network text`.execute(db);
  await sql`create index jobs_network_active_idx on jobs (network, lane) where status in ('queued', 'running')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index jobs_network_active_idx`.execute(db);
  await sql`alter table jobs drop column network`.execute(db);
}
