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

/**
 * Chromium, for the application PDF: CHROMIUM_PATH, or Debian's and others' names on PATH.
 * Chromium's headless shell first: the same engine and printing without a browser window
 * behind each page, which the full browser builds for every print context (about a third
 * of the CPU per print here, docs/performance/documents.md).
 */
export const findChromium = (configured: string | undefined) => findExecutable(configured, ['chromium-headless-shell', 'chromium', 'chromium-browser', 'google-chrome']);

/** LibreOffice, for Word files: SOFFICE_PATH, or its names on PATH. */
export const findSoffice = (configured: string | undefined) => findExecutable(configured, ['soffice', 'libreoffice']);
