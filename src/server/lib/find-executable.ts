import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The configured path, or the first of `names` found on PATH, or undefined. */
export function findExecutable(configured: string | undefined, names: string[]): string | undefined {
  const candidates = configured
    ? [configured]
    : (process.env.PATH ?? '').split(delimiter).flatMap((dir) => names.map((name) => join(dir, name)));
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
