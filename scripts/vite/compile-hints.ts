import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/** V8's explicit compile hint for a whole file (Chromium 136 and later). */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Starts every built script with V8's compile hint: its functions are then compiled while
 * the file streams in, on a background thread, instead of one by one on the main thread as
 * each is first called (issue 17: on a first visit most of a chunk's functions run, since
 * chunks are split by when their code is needed). Written into the files once they are
 * out, before they are compressed: the minifier drops comments, a Rollup `banner` too.
 * Each source map moves down the one line the hint adds.
 */
export function compileHints(): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    writeBundle: {
      sequential: true,
      order: 'pre',
      async handler({ dir }, bundle) {
        await Promise.all(Object.values(bundle).filter((file) => file.type === 'chunk').map(async ({ fileName }) => {
          const path = join(dir!, fileName);
          await writeFile(path, `${COMPILE_HINT}\n${await readFile(path, 'utf8')}`);
          const map = JSON.parse(await readFile(`${path}.map`, 'utf8').catch(() => 'null')) as { mappings: string } | null;
          if (map) await writeFile(`${path}.map`, JSON.stringify({ ...map, mappings: `;${map.mappings}` }));
        }));
      },
    },
  };
}
