import { hmac, safeEqual } from '../lib/secrets.ts';

/**
 * The presigned-POST policy of local storage, shaped like S3's: base64 JSON with an
 * expiry and conditions, signed with HMAC-SHA256 by a server secret. A POST that changes
 * any field, comes late or is larger than allowed is refused.
 */
export interface UploadPolicy {
  expiration: string;
  key: string;
  min: number;
  max: number;
}

export function signPolicy(secret: string, policy: UploadPolicy): { policy: string; signature: string } {
  const encoded = Buffer.from(JSON.stringify({
    expiration: policy.expiration,
    conditions: [{ key: policy.key }, ['content-length-range', policy.min, policy.max]],
  })).toString('base64');
  return { policy: encoded, signature: hmac(secret, encoded) };
}

export type PolicyProblem = 'signature' | 'expired' | 'key' | 'malformed';

/** The policy's key and size limits when the signature holds and it has not expired. */
export function verifyPolicy(secret: string, encoded: string, signature: string, key: string, now = Date.now()):
  { ok: true; min: number; max: number } | { ok: false; problem: PolicyProblem } {
  if (!safeEqual(hmac(secret, encoded), signature)) return { ok: false, problem: 'signature' };
  try {
    const policy = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as { expiration: string; conditions: unknown[] };
    if (!(Date.parse(policy.expiration) > now)) return { ok: false, problem: 'expired' };
    const keyCondition = policy.conditions.find((condition) => !Array.isArray(condition)) as { key?: string } | undefined;
    const range = policy.conditions.find((condition) => Array.isArray(condition) && condition[0] === 'content-length-range') as [string, number, number] | undefined;
    if (!keyCondition?.key || keyCondition.key !== key) return { ok: false, problem: 'key' };
    if (!range) return { ok: false, problem: 'malformed' };
    return { ok: true, min: range[1], max: range[2] };
  } catch {
    return { ok: false, problem: 'malformed' };
  }
}
