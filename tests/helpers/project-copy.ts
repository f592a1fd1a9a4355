import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
const COPIED = ['package.json', 'tsconfig.json', 'vite.config.ts', 'index.html', 'src', 'scripts', 'schemas', 'docs', 'preview', 'support'];

/**
 * A copy of the project whose schema files a test may change, as staff would on a
 * branch: the same sources and node_modules, its own generated files and build. Tests
 * of "a change in schemas/ alone" build and run the copy, never this checkout.
 */
export interface ProjectCopy {
  dir: string;
  /** edits schemas/<file> of the copy as JSON */
  editJson(file: string, change: (json: any) => void): void;
  writeJson(file: string, json: unknown): void;
  /** the environment a process of the copy runs with: this one's, but its workers from its own sources */
  environment(extra?: Record<string, string>): NodeJS.ProcessEnv;
  /** runs a project script of the copy (tsx), e.g. scripts/generate.ts; throws with its output when it fails */
  run(script: string, args?: string[], env?: Record<string, string>): string;
  /** generates, checks the schemas and builds the client and the server, as `npm test` does before its tests */
  build(): void;
  remove(): void;
}

export function copyProject(): ProjectCopy {
  const dir = join(mkdtempSync(join(tmpdir(), 'project-copy-')), 'project');
  for (const name of COPIED) {
    cpSync(join(ROOT, name), join(dir, name), { recursive: true, filter: (source) => !source.includes(`${join('src', 'shared', 'generated')}`) });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  // BUILT_WORKERS_DIR names this checkout's build, not the copy's
  const environment = (extra: Record<string, string> = {}) => ({ ...process.env, BUILT_WORKERS_DIR: '', ...extra });
  const run = (script: string, args: string[] = [], env: Record<string, string> = {}) => {
    try {
      return execFileSync(process.execPath, ['--import', 'tsx', script, ...args], { cwd: dir, env: environment(env), encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${script} failed in the project copy:\n${failed.stdout ?? ''}${failed.stderr ?? failed.message}`);
    }
  };
  return {
    dir,
    environment,
    editJson(file, change) {
      const path = join(dir, 'schemas', file);
      const json = JSON.parse(readFileSync(path, 'utf8'));
      change(json);
      writeFileSync(path, JSON.stringify(json, null, 2));
    },
    writeJson(file, json) {
      writeFileSync(join(dir, 'schemas', file), JSON.stringify(json, null, 2));
    },
    run,
    build() {
      run('scripts/generate.ts');
      run('scripts/check-schemas.ts');
      run('scripts/build-client.ts'); // every language's build, as `npm run build`
      run('scripts/build-server.mjs'); // the server its tests start
    },
    remove() {
      rmSync(resolve(dir, '..'), { recursive: true, force: true });
    },
  };
}
