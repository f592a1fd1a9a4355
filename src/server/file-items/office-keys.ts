/**
 * The office integration's keys (npm run office-key): a key is `ok_` and 32 random bytes
 * (base64url), shown once when made; only its SHA-256 is stored. A request presents it as
 * `Authorization: Bearer <key>`; the key is looked up by its hash, so no comparison runs on
 * the secret itself, and a revoked key is refused on every server at once (no cache).
 */
import type { Kysely } from 'kysely';
import {
  insertOfficeKey, listOfficeKeys, officeKeyByHash, officeKeysByIdPrefix, revokeOfficeKey, type OfficeKeyRow,
} from '../db/repositories/office-key-repository.ts';
import type { Database } from '../db/tables.ts';
import { randomToken, sha256 } from '../lib/secrets.ts';

export const OFFICE_KEY_PREFIX = 'ok_';
/** `ok_` and 43 base64url characters (32 bytes): anything else is refused before the database is asked. */
const KEY_SHAPE = /^ok_[A-Za-z0-9_-]{43}$/;
/** A key's name goes into `changed_by` as `office:<name>`: letters, digits, space, . _ @ - */
export const OFFICE_KEY_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._@-]{0,59}$/u;

export type { OfficeKeyRow };

export async function makeOfficeKey(db: Kysely<Database>, name: string, by: string): Promise<{ row: OfficeKeyRow; key: string }> {
  if (!OFFICE_KEY_NAME.test(name)) throw new Error('an office key\'s name is 1 to 60 letters, digits, spaces or . _ @ -, starting with a letter or digit');
  const key = `${OFFICE_KEY_PREFIX}${randomToken(32)}`;
  return { row: await insertOfficeKey(db, { name, keyHash: sha256(key), madeBy: by }), key };
}

/** The live key presented, or undefined: malformed, unknown and revoked keys alike. */
export async function verifyOfficeKey(db: Kysely<Database>, presented: string): Promise<OfficeKeyRow | undefined> {
  if (!KEY_SHAPE.test(presented)) return undefined;
  const row = await officeKeyByHash(db, sha256(presented));
  return row && !row.revoked_at ? row : undefined;
}

/** The key from an Authorization header: `Bearer <key>` only (never a cookie or the address). */
export function bearerOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}

export function officeKeys(db: Kysely<Database>) {
  return {
    make: (name: string, by: string) => makeOfficeKey(db, name, by),
    list: (all: boolean) => listOfficeKeys(db, all),
    /** By its id or its first 8 or more characters. */
    async revoke(idPrefix: string, by: string): Promise<{ status: 'not found' | 'ambiguous' } | { status: 'revoked' | 'already revoked'; key: OfficeKeyRow }> {
      if (idPrefix.replace(/[^0-9a-fA-F-]/g, '').length < 8 || /[^0-9a-fA-F-]/.test(idPrefix)) return { status: 'not found' };
      const found = await officeKeysByIdPrefix(db, idPrefix);
      if (found.length > 1) return { status: 'ambiguous' };
      if (!found.length) return { status: 'not found' };
      const result = await revokeOfficeKey(db, found[0]!.id, by);
      if (!result) return { status: 'not found' };
      return { status: result.revoked ? 'revoked' : 'already revoked', key: result.row };
    },
  };
}
