/**
 * The form of a schemas directory as the generator builds it, and of a git revision's
 * schemas/ (taken out with git archive into a temporary folder). The generator reads the
 * directory SCHEMAS_DIR names at call time, so both forms are built in this one process.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildForm, type GeneratedForm } from '../generate/form-model.ts';

export function formOf(schemasDir: string): GeneratedForm {
  const before = process.env.SCHEMAS_DIR;
  process.env.SCHEMAS_DIR = schemasDir;
  try {
    return buildForm();
  } finally {
    if (before === undefined) delete process.env.SCHEMAS_DIR;
    else process.env.SCHEMAS_DIR = before;
  }
}

/** schemas/ as it was at `revision`, in a temporary folder; `remove` deletes it. */
export function schemasAt(revision: string, cwd: string): { dir: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'schemas-at-'));
  try {
    const prefix = execFileSync('git', ['rev-parse', '--show-prefix'], { cwd, encoding: 'utf8' }).trim();
    const archive = execFileSync('git', ['archive', '--format=tar', revision, `${prefix}schemas`], { cwd, maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', root], { input: archive });
    return { dir: join(root, prefix, 'schemas'), remove: () => rmSync(root, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`cannot read schemas/ at "${revision}": ${stderr || (error as Error).message}`);
  }
}
