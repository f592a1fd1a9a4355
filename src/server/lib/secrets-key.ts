import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { PRIVATE_FILE, privateDir } from './private-files.ts';

export const SECRETS_KEY_BYTES = 32;
export const SECRETS_KEY_FILE = 'secrets.key';

/**
 * The key that seals the server's secrets in the database: SECRETS_KEY, or else a key made
 * once in DATA_DIR (0600), beside the embedded database but never inside it. Servers that
 * share a PostgreSQL database must share SECRETS_KEY. A database copied or leaked on its own
 * then holds no secret in clear.
 */
export async function loadSecretsKey(config: Pick<Config, 'secretsKey' | 'dataDir'>): Promise<Buffer> {
  if (config.secretsKey) return config.secretsKey;
  if (config.dataDir === 'memory://') return randomBytes(SECRETS_KEY_BYTES); // a database that ends with the process
  await privateDir(config.dataDir);
  const path = join(config.dataDir, SECRETS_KEY_FILE);
  const made = randomBytes(SECRETS_KEY_BYTES).toString('base64');
  // 'wx': two processes starting at once both read the one that was written first
  await writeFile(path, `${made}\n`, { flag: 'wx', mode: PRIVATE_FILE }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const key = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64');
  if (key.length !== SECRETS_KEY_BYTES) throw new Error(`${path} does not hold a ${SECRETS_KEY_BYTES}-byte key in base64`);
  return key;
}
