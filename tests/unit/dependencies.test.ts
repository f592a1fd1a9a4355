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

/**
 * The packages the product loads as it runs, on the server or in the applicant's browser
 * (type-only imports aside), by package name, each with a file that imports it: those must be
 * production dependencies, which `npm run audit:prod` checks.
 */
function packagesTheProductRuns(): Map<string, string> {
  const found = new Map<string, string>();
  const files = ['src/server', 'src/shared', 'src/client'].flatMap((folder) => sourceFiles(join(root, folder)));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const specifiers = [
      // an import or a re-export (`export { x } from 'pkg'` loads the package too)
      ...[...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((match) => match[1]!),
      ...[...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((match) => match[1]!),
      ...[...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((match) => match[1]!),
    ];
    for (const specifier of specifiers) {
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      const parts = specifier.split('/');
      found.set(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!, file.slice(root.length + 1));
    }
  }
  return found;
}

describe('dependencies', () => {
  it('that the product runs are production dependencies, which the production audit covers', () => {
    const found = packagesTheProductRuns();
    // the scan finds what the server imports, what the browser's code imports, and a lazy import
    expect(found.get('fastify')).toBeDefined();
    expect(found.get('@rjsf/core')).toBeDefined();
    expect(found.get('playwright-core')).toBe('src/server/pdf/chromium-printer.ts');
    const notProduction = [...found].filter(([name]) => !manifest.dependencies[name]).map(([name, file]) => `${name} (${file})`);
    expect(notProduction).toEqual([]);
  });


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
