import { describe, expect, it } from 'vitest';
import { siblingEntry } from '../../src/server/lib/sibling-entry.ts';

describe('the file a worker starts from', () => {
  it('is the built JavaScript beside a built module', () => {
    expect(siblingEntry('file:///srv/app/dist/server/chunk-AB12CD34.js', 'pglite-worker', {}))
      .toEqual({ url: new URL('file:///srv/app/dist/server/pglite-worker.js'), typescript: false });
  });

  it('is the TypeScript source beside a source module, which needs a TypeScript loader', () => {
    expect(siblingEntry('file:///srv/app/src/server/documents/untrusted-file-worker.ts', 'untrusted-file-process', {}))
      .toEqual({ url: new URL('file:///srv/app/src/server/documents/untrusted-file-process.ts'), typescript: true });
  });

  it('is the built JavaScript in BUILT_WORKERS_DIR for a source module when that is set', () => {
    expect(siblingEntry('file:///srv/app/src/server/db/pglite-thread.ts', 'pglite-worker', { BUILT_WORKERS_DIR: '/srv/app/dist/server' }))
      .toEqual({ url: new URL('file:///srv/app/dist/server/pglite-worker.js'), typescript: false });
  });

  it('stays beside a built module whatever BUILT_WORKERS_DIR says', () => {
    expect(siblingEntry('file:///srv/app/dist/server/chunk-AB12CD34.js', 'pglite-worker', { BUILT_WORKERS_DIR: '/elsewhere' }))
      .toEqual({ url: new URL('file:///srv/app/dist/server/pglite-worker.js'), typescript: false });
  });
});
