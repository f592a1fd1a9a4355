/**
 * `npm run build` (after gen:types): the client once per language, into one dist/client.
 * Each build has its language's texts in place (scripts/vite/language-build.ts); their
 * assets share one folder, where a chunk with no texts has the same name in every build,
 * so a visitor who changes language keeps it from the cache. English writes index.html and
 * .vite/manifest.json; another language index.<lang>.html and .vite/manifest.<lang>.json,
 * which the server sends to a visitor in that language (src/server/plugins/client.ts).
 * English is built last: index.html is what scripts/ensure-build.mjs dates the build by.
 *
 * Then the server's drawing of the form pages, once per language with the same texts in
 * place: dist/ssr/<lang>/render-worker.js, the worker thread src/server/render/render-pool.ts
 * starts. Everything is bundled into it (no package is read from node_modules at run time),
 * with the same aliases and stand-ins as the browser's bundle, so both draw the same markup.
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { OVERLAY_LANGUAGES, SOURCE_LANGUAGE } from '../src/shared/i18n/languages.ts';
import { clientFiles } from '../src/shared/i18n/client-files.ts';

const outDir = join(import.meta.dirname, '..', 'dist', 'client');
const ssrDir = join(import.meta.dirname, '..', 'dist', 'ssr');
const languages = [...OVERLAY_LANGUAGES, SOURCE_LANGUAGE];

for (const language of languages) {
  process.env.APP_LANGUAGE = language;
  await build({
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    ssr: { noExternal: true, target: 'node' },
    build: {
      ssr: 'src/client/ssr/render-worker.ts',
      outDir: join(ssrDir, language),
      emptyOutDir: true,
      manifest: false,
      sourcemap: false,
      rollupOptions: { output: { entryFileNames: 'render-worker.js', chunkFileNames: '[name]-[hash].js', codeSplitting: true } },
    },
  });
}
for (const [index, language] of languages.entries()) {
  process.env.APP_LANGUAGE = language;
  await build({ build: { emptyOutDir: index === 0 } });
  if (language === SOURCE_LANGUAGE) continue;
  const english = clientFiles(SOURCE_LANGUAGE);
  const own = clientFiles(language);
  renameSync(join(outDir, english.html), join(outDir, own.html));
  renameSync(join(outDir, english.manifest), join(outDir, own.manifest));
}
