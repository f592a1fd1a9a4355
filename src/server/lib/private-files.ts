import { chmod, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Modes of what the server keeps under DATA_DIR: its own user only (data, uploads, secrets in the database). */
export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

/**
 * Whatever this process creates from now on (a database file, an export, a log of links)
 * is its user's alone: 0600 files, 0700 folders. The server and every command call it
 * first, so no command leaves an applicant's data readable by other users of the machine.
 */
export function keepFilesPrivate(): void {
  process.umask(0o077);
}

/** chmod, except on what another user owns (an operator's own folder): that stays as they set it. */
async function tighten(path: string, mode: number): Promise<void> {
  await chmod(path, mode).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPERM') throw error;
  });
}

/** Makes the folder (and missing parents) readable by the server's user only, also when it was there before. */
export async function privateDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: PRIVATE_DIR });
  await tighten(path, PRIVATE_DIR);
}

/**
 * Every folder and file below path made the server's own. PGlite unpacks its database
 * with mode 0666; PostgreSQL then creates new files after its folder's mode (0600 here).
 */
export async function makePrivate(path: string): Promise<void> {
  await tighten(path, PRIVATE_DIR);
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) await makePrivate(child);
    else if (entry.isFile()) await tighten(child, PRIVATE_FILE);
  }
}
