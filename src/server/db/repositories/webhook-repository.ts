import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, WebhookEventsTable } from '../tables.ts';

export type WebhookEvent = Pick<Selectable<WebhookEventsTable>, 'id' | 'type' | 'body'>;

/**
 * Records an event; one that goes once per applicant (`once`: submitted, file complete) only
 * the first time. Returns its id, or undefined when it was there already.
 */
export async function insertWebhookEvent(
  db: Kysely<Database>, event: { id: string; type: string; applicantId: string; body: string; once?: boolean },
): Promise<string | undefined> {
  const row = await db.insertInto('webhook_events')
    .values({ id: event.id, type: event.type, applicant_id: event.applicantId, body: event.body, once_key: event.once === false ? null : `${event.type}:${event.applicantId}` })
    .onConflict((conflict) => conflict.column('once_key').doNothing())
    .returning('id').executeTakeFirst();
  return row?.id;
}

export function findWebhookEvent(db: Kysely<Database>, id: string): Promise<WebhookEvent | undefined> {
  return db.selectFrom('webhook_events').select(['id', 'type', 'body']).where('id', '=', id).executeTakeFirst();
}

export async function webhookEventIdsSince(db: Kysely<Database>, since: Date): Promise<string[]> {
  const rows = await db.selectFrom('webhook_events').select('id').where('created_at', '>=', since).orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => row.id);
}

/** Submissions since a time that have no application.submitted event (made before webhooks were set up, or lost). */
export async function submissionsWithoutEvent(db: Kysely<Database>, since: Date): Promise<{ applicant_id: string; email: string; submitted_at: Date }[]> {
  return db.selectFrom('web_status_entries as s')
    .innerJoin('applicants as a', 'a.id', 's.applicant_id')
    .leftJoin('webhook_events as e', (join) => join.onRef('e.applicant_id', '=', 's.applicant_id').on('e.type', '=', 'application.submitted'))
    .select(['s.applicant_id', 'a.email', 's.created_at as submitted_at'])
    .where('s.web_status', '=', 'submitted').where('s.created_at', '>=', since).where('e.id', 'is', null)
    .orderBy('s.created_at').execute();
}

export async function submittedAt(db: Kysely<Database>, applicantId: string): Promise<{ email: string; submitted_at: Date } | undefined> {
  return db.selectFrom('web_status_entries as s').innerJoin('applicants as a', 'a.id', 's.applicant_id')
    .select(['a.email', 's.created_at as submitted_at'])
    .where('s.applicant_id', '=', applicantId).where('s.web_status', '=', 'submitted').executeTakeFirst();
}

export async function recordWebhookAttempt(
  db: Kysely<Database>, attempt: { eventId: string; statusCode: number | null; error: string | null; durationMs: number },
): Promise<void> {
  await db.insertInto('webhook_attempts')
    .values({ event_id: attempt.eventId, status_code: attempt.statusCode, error: attempt.error, duration_ms: attempt.durationMs })
    .execute();
  if (attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300) {
    await db.updateTable('webhook_events').set({ delivered_at: sql`coalesce(delivered_at, now())` }).where('id', '=', attempt.eventId).execute();
  }
}

export function webhookAttempts(db: Kysely<Database>, eventId: string) {
  return db.selectFrom('webhook_attempts').select(['attempted_at', 'status_code', 'error', 'duration_ms'])
    .where('event_id', '=', eventId).orderBy('id').execute();
}
