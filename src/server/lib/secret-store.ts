import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { findSecret, insertSecretIfAbsent, replaceSecret } from '../db/repositories/secret-repository.ts';
import type { Database } from '../db/tables.ts';

const VERSION = 'v1';

/** AES-256-GCM, bound to the secret's name: a sealed value moved to another name does not open. */
export function sealSecret(key: Buffer, name: string, value: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(name));
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
}

export function openSecret(key: Buffer, name: string, sealed: string): string {
  const [version, iv, tag, body] = sealed.split(':');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error(`the secret ${name} is not sealed in a form this server knows`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64')).setAAD(Buffer.from(name));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(`the secret ${name} in the database was sealed with another key: every server on one database needs the same SECRETS_KEY`);
  }
}

const isSealed = (value: string) => value.startsWith(`${VERSION}:`);

/**
 * The server's secrets (signing and hashing keys), kept in the database so that every
 * server on it agrees, sealed with a key kept outside it (secrets-key.ts). Made on first
 * use; one stored in clear by an older version is sealed on first read, unchanged.
 */
export function createSecretStore(db: Kysely<Database>, key: Buffer) {
  return {
    async get(name: string, create: () => string): Promise<string> {
      await insertSecretIfAbsent(db, name, sealSecret(key, name, create()));
      const stored = await findSecret(db, name);
      if (isSealed(stored)) return openSecret(key, name, stored);
      await replaceSecret(db, name, stored, sealSecret(key, name, stored));
      return stored;
    },
  };
}

export type SecretStore = ReturnType<typeof createSecretStore>;
