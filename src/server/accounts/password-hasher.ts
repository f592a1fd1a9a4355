import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';

/**
 * argon2id (the library's default algorithm) with OWASP ASVS parameters (m = 19 MiB, t = 2, p = 1). Each hash holds its
 * memory while it runs, so a login storm is queued rather than run all at once.
 */
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
const limit = pLimit(4);
let dummyHash: Promise<string> | undefined;

export function hashPassword(password: string): Promise<string> {
  return limit(() => hash(password, options));
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return limit(() => verify(passwordHash, password).catch(() => false));
}

/** Spends the time of a real verification, so an unknown account answers as slowly as a known one. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hash('not-a-real-password-but-the-same-cost', options);
  await verifyPassword(await dummyHash, password);
  return false;
}
