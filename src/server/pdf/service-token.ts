import { hmac, safeEqual } from '../lib/secrets.ts';

/**
 * A service token lets one read-only view of one applicant be opened without a session:
 * the PDF printer uses it, and staff get one from `npm run service-link`. Signed with a
 * server secret, scoped to reading one applicant, and short-lived. A staff link's token
 * also names its recorded link (`lid`), so it can be revoked (src/server/service-links).
 */
export interface ServiceClaims {
  applicantId: string;
  scope: 'read';
  expiresAt: number;
  /** the recorded staff link (table service_links); absent in the printer's own tokens */
  linkId?: string;
}

export function signServiceToken(secret: string, applicantId: string, ttlMs: number, now = Date.now(), linkId?: string): string {
  const claims = { sub: applicantId, scope: 'read', exp: now + ttlMs, ...(linkId ? { lid: linkId } : {}) };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${hmac(secret, payload)}`;
}

export function verifyServiceToken(secret: string, token: unknown, now = Date.now()): ServiceClaims | undefined {
  if (typeof token !== 'string' || token.length > 512) return undefined;
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length || !safeEqual(hmac(secret, payload), signature)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown; scope?: unknown; exp?: unknown; lid?: unknown };
    if (typeof claims.sub !== 'string' || claims.scope !== 'read' || typeof claims.exp !== 'number' || claims.exp <= now) return undefined;
    if (claims.lid !== undefined && typeof claims.lid !== 'string') return undefined;
    return { applicantId: claims.sub, scope: 'read', expiresAt: claims.exp, ...(claims.lid ? { linkId: claims.lid } : {}) };
  } catch {
    return undefined;
  }
}
