import type { Kysely } from 'kysely';
import { findApplicantByEmail } from '../db/repositories/applicant-repository.ts';
import { isServiceLinkUsable, listServiceLinks, recordServiceLink, revokeServiceLink } from '../db/repositories/service-link-repository.ts';
import type { Database } from '../db/tables.ts';
import { signServiceToken, verifyServiceToken, type ServiceClaims } from '../pdf/service-token.ts';

/** The longest a staff link may live (npm run service-link --minutes). */
export const MAX_LINK_MINUTES = 24 * 60;

/**
 * A token without a recorded link is the PDF printer's own (5 minutes, never shown to
 * anyone); one that claims a longer life was not made by the printer (a staff link from
 * before links were recorded) and is refused, so every staff link in use can be listed.
 */
const UNRECORDED_TOKEN_MAX_MS = 15 * 60_000;

/**
 * Staff links to the read-only view: each one made is recorded (who, when, which
 * applicant, until when), can be listed and revoked, and is checked against its row on
 * every use, so a revoke holds at once on every server sharing the database.
 */
export function createStaffLinks(db: Kysely<Database>, secret: string) {
  return {
    async make(email: string, madeBy: string, minutes: number, publicUrl: string) {
      const applicant = await findApplicantByEmail(db, email);
      if (!applicant) return undefined;
      const expiresAt = new Date(Date.now() + minutes * 60_000);
      const id = await recordServiceLink(db, { applicantId: applicant.id, madeBy, expiresAt });
      const token = signServiceToken(secret, applicant.id, minutes * 60_000, Date.now(), id);
      return { id, expiresAt, url: `${publicUrl}/about?service_token=${encodeURIComponent(token)}` };
    },

    list: (all: boolean) => listServiceLinks(db, { all, limit: 1000 }),

    revoke: (idOrPrefix: string, revokedBy: string) => revokeServiceLink(db, idOrPrefix, revokedBy),

    /** The claims of a token that may be used now: signed, unexpired, and (for a staff link) recorded and not revoked. */
    async verify(token: unknown, now = Date.now()): Promise<ServiceClaims | undefined> {
      const claims = verifyServiceToken(secret, token, now);
      if (!claims) return undefined;
      if (!claims.linkId) return claims.expiresAt - now <= UNRECORDED_TOKEN_MAX_MS ? claims : undefined;
      return /^[0-9a-f-]{36}$/.test(claims.linkId) && await isServiceLinkUsable(db, claims.linkId, claims.applicantId) ? claims : undefined;
    },
  };
}

export type StaffLinks = ReturnType<typeof createStaffLinks>;
