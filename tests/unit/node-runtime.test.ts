import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The project runs on the Node.js it installs, the `node` package pinned in the lockfile,
 * and not on whatever the machine has: npm scripts find it first on their PATH, and Vitest's
 * workers, tsx and the servers' worker threads and processes inherit it (process.execPath).
 */
const root = resolve(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string }; allowScripts: Record<string, boolean> };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string; hasInstallScript?: boolean }> };
const installed = lock.packages['node_modules/node']!.version;

describe('the Node.js the project runs on', () => {
  it('is the lockfile\'s node package, in the line package.json\'s engines names', () => {
    expect(process.version).toBe(`v${installed}`);
    const [major, minor] = installed.split('.').map(Number);
    const range = /^\^(\d+)\.(\d+)\.\d+$/.exec(manifest.engines.node);
    expect(range, 'engines.node is one line, ^major.minor.patch').not.toBeNull();
    expect(Number(range![1])).toBe(major);
    expect(Number(range![2])).toBeLessThanOrEqual(minor!);
  });

  it('comes with every install script it needs reviewed in allowScripts', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path.startsWith('node_modules/') && entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts).toContain('node');
    expect(Object.keys(manifest.allowScripts).sort()).toEqual([...new Set(withScripts)].sort());
  });
});
