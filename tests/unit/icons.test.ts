import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..', 'src', 'client');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('bundled icons (src/client/lib/icons.ts)', () => {
  it('include every icon name the client uses', () => {
    const list = /16px\/paths\/\{([^}]*)\}/.exec(readFileSync(join(root, 'lib', 'icons.ts'), 'utf8'))![1]!.split(',');
    const used = new Set<string>();
    for (const file of sources(root)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:icon|endIcon)=(?:"([a-z-]+)"|\{([^}]*)\})|icon: '([a-z-]+)'/g)) {
        const names = match[1] ?? match[3] ?? [...(match[2] ?? '').matchAll(/[?:]\s*'([a-z-]+)'/g)].map((item) => item[1]).join(',');
        names.split(',').filter(Boolean).forEach((name) => used.add(name));
      }
    }
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((name) => !list.includes(name))).toEqual([]);
  });

  it('are decoration: no icon carries a title, which would make it an image that screen readers read out', () => {
    const titled: string[] = [];
    for (const file of sources(root)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/<(\w*Icon)\b[^>]*?\b(?:title|htmlTitle)=/g)) titled.push(`${file.slice(root.length + 1)}: ${match[1]}`);
    }
    expect(titled).toEqual([]);
  });
});
