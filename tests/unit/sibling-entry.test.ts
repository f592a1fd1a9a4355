import { describe, expect, it } from 'vitest';
import { siblingEntry } from '../../src/server/lib/sibling-entry.ts';

describe('the file a worker starts from', () => {
  it('is the built JavaScript beside a built module', () => {
    expect(siblingEntry('file:///srv/app/dist/server/chunk-AB12CD34.js', 'pglite-worker'))
      .toEqual({ url: new URL('file:///srv/app/dist/server/pglite-worker.js'), typescript: false });
  });

  it('is the TypeScript source beside a source module, which needs a TypeScript loader', () => {
    expect(siblingEntry('file:///srv/app/src/server/documents/untrusted-file-worker.ts', 'untrusted-file-process'))
      .toEqual({ url: new URL('file:///srv/app/src/server/documents/untrusted-file-process.ts'), typescript: true });
  });
});
