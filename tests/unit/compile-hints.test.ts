import { readdirSync, readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { describe, expect, it } from 'vitest';
import { COMPILE_HINT } from '../../scripts/vite/compile-hints.ts';

// the production build `npm test` makes before the tests (as style-sheet.test.ts reads it)
const assets = new URL('../../dist/client/assets/', import.meta.url);
const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
const read = (name: string) => readFileSync(new URL(name, assets));

describe('V8 compile hints in the built scripts (issue 17)', () => {
  it('start every script, and its brotli and gzip copies, which hold the same bytes', () => {
    expect(scripts.length).toBeGreaterThan(3);
    for (const name of scripts) {
      const code = read(name);
      expect(code.toString('utf8').startsWith(`${COMPILE_HINT}\n`), name).toBe(true);
      expect(brotliDecompressSync(read(`${name}.br`)).equals(code), name).toBe(true);
      expect(gunzipSync(read(`${name}.gz`)).equals(code), name).toBe(true);
    }
  });

  it('leave the source maps pointing at the right lines of our source', () => {
    const name = scripts.find((file) => file.startsWith('FormPageRoute-'))!;
    const code = read(name).toString('utf8');
    const map = new TraceMap(JSON.parse(read(`${name}.map`).toString('utf8')));
    const at = code.search(/[`'"]bp6-input-group[`'"]/);
    expect(at).toBeGreaterThan(0);
    const before = code.slice(0, at);
    const position = originalPositionFor(map, { line: before.split('\n').length, column: at - before.lastIndexOf('\n') - 1 });
    expect(position.source).toMatch(/form-theme\/widgets\/FieldInput\.tsx$/);
    const source = readFileSync(new URL(`../../src/client/form-theme/widgets/FieldInput.tsx`, import.meta.url), 'utf8');
    expect(source.split('\n')[position.line! - 1]).toContain('bp6-input-group');
  });
});
