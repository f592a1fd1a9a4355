import { access, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { ObjectStorage } from './object-storage.ts';
import { signPolicy } from './upload-policy.ts';

/** Objects as files under DATA_DIR/objects; keys are confined to that folder. */
export function createLocalStorage(options: { root: string; uploadUrl: () => string; secret: string }): ObjectStorage & { pathOf(key: string): string } {
  const root = resolve(options.root);

  const pathOf = (key: string) => {
    if (!/^[A-Za-z0-9/_.-]+$/.test(key) || key.includes('..')) throw new Error(`refused object key ${key}`);
    const path = resolve(root, key);
    if (!path.startsWith(root + sep)) throw new Error(`refused object key ${key}`);
    return path;
  };

  return {
    pathOf,
    async presignPost(key, { maxBytes, expiresInSeconds }) {
      pathOf(key);
      const expiration = new Date(Date.now() + expiresInSeconds * 1000).toISOString();
      const { policy, signature } = signPolicy(options.secret, { expiration, key, min: 1, max: maxBytes });
      return { url: options.uploadUrl(), fields: { key, policy, 'x-signature': signature } };
    },
    // async, so a refused key rejects like the other calls instead of throwing past a caller's .catch()
    get: async (key) => readFile(pathOf(key)),
    async put(key, data) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, data);
      await rename(temporary, path);
    },
    async exists(key) {
      try {
        await access(pathOf(key));
        return true;
      } catch {
        return false;
      }
    },
    async size(key) {
      try {
        return (await stat(pathOf(key))).size;
      } catch {
        return undefined;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

export function localStorageRoot(dataDir: string): string {
  return join(dataDir, 'objects');
}
