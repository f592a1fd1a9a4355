import { access, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { PRIVATE_DIR, PRIVATE_FILE } from '../lib/private-files.ts';
import type { ObjectStorage } from './object-storage.ts';
import { signPolicy } from './upload-policy.ts';

/** Objects as files under DATA_DIR/objects; keys are confined to that folder, which only the server's user can read. */
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
      await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR });
      const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, data, { mode: PRIVATE_FILE });
      await rename(temporary, path);
    },
    async move(from, to) {
      const source = pathOf(from);
      const target = pathOf(to);
      await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR });
      try {
        // one rename: an upload still arriving writes a temporary file and renames it in, so
        // it lands whole at `from` or not at all, never inside the moved file
        await rename(source, target);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
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
    async *list(prefix) {
      // the folder the prefix names (uploads/ or pdfs/<id>/), then the keys in it that start with the prefix
      const folder = prefix.endsWith('/') ? pathOf(prefix.slice(0, -1)) : dirname(pathOf(prefix));
      const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      for (const entry of entries) {
        if (!entry.isFile()) continue;
        const path = join(entry.parentPath, entry.name);
        const key = relative(root, path).split(sep).join('/');
        if (!key.startsWith(prefix)) continue;
        const info = await stat(path).catch(() => undefined);
        if (info) yield { key, size: info.size, lastModified: info.mtime };
      }
    },
  };
}

export function localStorageRoot(dataDir: string): string {
  return join(dataDir, 'objects');
}
