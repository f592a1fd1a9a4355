import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { seedEmbeddedDatabase } from '../../support/pglite-template.ts';
import { builtCommand } from '../helpers/built-server.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Every file and folder below `path` that another user of the machine could read or enter, with its mode. */
function openToOthers(path: string): string[] {
  const found: string[] = [];
  const visit = (at: string) => {
    const mode = statSync(at).mode & 0o777;
    if (mode & 0o077) found.push(`${at.slice(path.length) || '.'} ${mode.toString(8)}`);
    if (statSync(at).isDirectory()) for (const name of readdirSync(at)) visit(join(at, name));
  };
  visit(path);
  return found;
}

/**
 * The office's commands write applicants' data (the embedded database they open, an
 * export's files): none of it may be readable by another user of the machine, whatever
 * the umask of the shell they are started from.
 */
describe('files the commands write', () => {
  const folder = mkdtempSync(join(tmpdir(), 'admission-modes-'));
  const dataDir = join(folder, 'data');
  const outDir = join(folder, 'export');
  // a migrated embedded database, as `npm start` leaves it (a fresh one takes minutes on a busy machine)
  seedEmbeddedDatabase(dataDir);
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const command = async (script: string, ...args: string[]) => (await promisify(execFile)(process.execPath, builtCommand(script, ...args), {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    timeout: 240_000,
  })).stdout;

  it('are the server\'s user\'s alone: a link command\'s database and an export', async () => {
    // the shell's usual umask would leave files 0644 and folders 0755
    const before = process.umask(0o022);
    try {
      // the link command opens the embedded database and writes to it
      expect(await command('prefill-link', '--answers', '{"first_name":"Ada"}')).toMatch(/\/about\?token=/);
      expect(await command('export-applications', '--out', outDir, '--all')).toMatch(/applications in/);
    } finally {
      process.umask(before);
    }
    expect(readdirSync(dataDir).length).toBeGreaterThan(0);
    expect(readdirSync(outDir).length).toBeGreaterThan(0);
    expect(openToOthers(dataDir)).toEqual([]);
    expect(openToOthers(outDir)).toEqual([]);
  }, 600_000);
});
