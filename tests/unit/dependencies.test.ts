import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No dependency is installed for nothing: each one is imported (or required, or resolved)
 * by the code, the scripts, the benchmarks, the tests (and their support/) or a config file, or its command is run by an npm
 * script. An unused one is a supply-chain risk and a line of the README that lies.
 */
const root = resolve(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string>;
};

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (name === 'node_modules' || name === 'generated') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mjs|js|cjs)$/.test(name) ? [path] : [];
  });
}

const code = [
  ...['src', 'preview', 'scripts', 'bench', 'support', 'tests'].flatMap((folder) => sourceFiles(join(root, folder))),
  ...['eslint.config.js', 'vite.config.ts', 'vitest.config.ts'].map((name) => join(root, name)),
].filter((path) => path !== import.meta.filename).map((path) => readFileSync(path, 'utf8')).join('\n');
const scripts = Object.values(manifest.scripts).join('\n');

/** The commands a package puts on the PATH, by package. */
function binsOf(name: string): string[] {
  const packageJson = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
  if (!packageJson.bin) return [];
  return typeof packageJson.bin === 'string' ? [name.split('/').pop()!] : Object.keys(packageJson.bin);
}

/**
 * Needed though nothing of ours imports them: the file of a package we use that imports
 * each (checked below, so the reason cannot go stale).
 */
const NEEDED_BY: Record<string, string> = {
  // @rjsf/core's bundle includes its test registry, which imports the ajv8 validator without declaring it
  '@rjsf/validator-ajv8': 'node_modules/@rjsf/core/lib/getTestRegistry.js',
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const isImported = (name: string) => new RegExp(`['"\`]${escape(name)}(/[^'"\`]*)?['"\`]|@vitest-environment ${escape(name)}\\b`).test(code);
const isRun = (name: string) => binsOf(name).some((bin) => new RegExp(`(^|[\\s&;])${escape(bin)}\\s`, 'm').test(scripts));
/** @types/x is used when x is (or x is Node's own module). */
const typesUsed = (name: string) => {
  const target = name.slice('@types/'.length).replace(/^(\w[\w-]*)__/, '@$1/');
  return target === 'node' || isImported(target);
};

describe('dependencies', () => {
  it('are each imported, resolved or run by an npm script', () => {
    const unused = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)]
      .filter((name) => (name.startsWith('@types/') ? !typesUsed(name) : !isImported(name) && !isRun(name) && !NEEDED_BY[name]));
    expect(unused).toEqual([]);
  });

  it('needs those that only another package imports, because that package does', () => {
    for (const [name, file] of Object.entries(NEEDED_BY)) expect(readFileSync(join(root, file), 'utf8'), `${file} imports ${name}`).toContain(`'${name}'`);
  });

  it('would notice one that is not', () => {
    expect(isImported('pg-boss')).toBe(false);
    expect(isImported('fastify')).toBe(true);
  });
});
