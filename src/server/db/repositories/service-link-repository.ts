import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, ServiceLinksTable } from '../tables.ts';

export type ServiceLinkRow = Selectable<ServiceLinksTable> & { email: string };

export async function recordServiceLink(db: Kysely<Database>, link: { applicantId: string; madeBy: string; expiresAt: Date }): Promise<string> {
  const row = await db.insertInto('service_links')
    .values({ applicant_id: link.applicantId, made_by: link.madeBy, expires_at: link.expiresAt })
    .returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A link is usable while recorded, for this applicant, not revoked and not expired (by the database's clock). */
export async function isServiceLinkUsable(db: Kysely<Database>, id: string, applicantId: string): Promise<boolean> {
  const row = await db.selectFrom('service_links').select('id')
    .where('id', '=', id).where('applicant_id', '=', applicantId)
    .where('revoked_at', 'is', null).where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row !== undefined;
}

/** The newest links first; expired and revoked ones only with `all`. */
export function listServiceLinks(db: Kysely<Database>, options: { all: boolean; limit: number }): Promise<ServiceLinkRow[]> {
  let query = db.selectFrom('service_links').innerJoin('applicants', 'applicants.id', 'service_links.applicant_id')
    .selectAll('service_links').select('applicants.email');
  if (!options.all) query = query.where('service_links.expires_at', '>', sql<Date>`now()`).where('service_links.revoked_at', 'is', null);
  return query.orderBy('service_links.created_at', 'desc').limit(options.limit).execute();
}

/**
 * Revokes the link whose id is or starts with `idOrPrefix` (at least 8 characters, so a
 * list's short id does); none or several matching: nothing is revoked.
 */
export async function revokeServiceLink(db: Kysely<Database>, idOrPrefix: string, revokedBy: string): Promise<
  { status: 'revoked' | 'already revoked'; link: ServiceLinkRow } | { status: 'not found' | 'ambiguous' }
> {
  const prefix = idOrPrefix.toLowerCase();
  if (!/^[0-9a-f-]{8,36}$/.test(prefix)) return { status: 'not found' };
  const matches = await db.selectFrom('service_links').innerJoin('applicants', 'applicants.id', 'service_links.applicant_id')
    .selectAll('service_links').select('applicants.email')
    .where(sql<string>`service_links.id::text`, 'like', `${prefix}%`).limit(2).execute();
  if (matches.length === 0) return { status: 'not found' };
  if (matches.length > 1) return { status: 'ambiguous' };
  const link = matches[0]!;
  // revoked_at is set once: a second revoke keeps the first's time and name
  const updated = await db.updateTable('service_links').set({ revoked_at: sql<Date>`now()`, revoked_by: revokedBy })
    .where('id', '=', link.id).where('revoked_at', 'is', null).returningAll().executeTakeFirst();
  if (!updated) {
    // revoked before, or by a revoke that committed while this one waited: the row as it is
    // now says who and when (the match above may have been read before that revoke)
    const current = await db.selectFrom('service_links').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    return { status: 'already revoked', link: { ...current, email: link.email } };
  }
  return { status: 'revoked', link: { ...updated, email: link.email } };
}
