import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * Node's arguments for the server (`main`) or an office command (`outbox`, `webhooks`...)
 * as `npm start` and `npm run <command>` run them: from the build in dist/server
 * (scripts/build-server.mjs), relative to the project they run in.
 */
export function builtCommand(name: string, ...args: string[]): string[] {
  return ['--enable-source-maps', `dist/server/${name}.js`, ...args];
}

/** Vitest's global set-up: builds dist/server again when a source is newer (a run without `npm test`'s build step). */
export default function buildServerIfStale(): void {
  execFileSync(process.execPath, ['scripts/ensure-build.mjs', '--server'], { cwd: ROOT, stdio: 'inherit' });
}
