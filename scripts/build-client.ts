/**
 * `npm run build` (after gen:types): the client once per language, into one dist/client.
 * Each build has its language's texts in place (scripts/vite/language-build.ts); their
 * assets share one folder, where a chunk with no texts has the same name in every build,
 * so a visitor who changes language keeps it from the cache. English writes index.html and
 * .vite/manifest.json; another language index.<lang>.html and .vite/manifest.<lang>.json,
 * which the server sends to a visitor in that language (src/server/plugins/client.ts).
 * English is built last: index.html is what scripts/ensure-build.mjs dates the build by.
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { OVERLAY_LANGUAGES, SOURCE_LANGUAGE } from '../src/shared/i18n/languages.ts';
import { clientFiles } from '../src/shared/i18n/client-files.ts';

const outDir = join(import.meta.dirname, '..', 'dist', 'client');
const languages = [...OVERLAY_LANGUAGES, SOURCE_LANGUAGE];
for (const [index, language] of languages.entries()) {
  process.env.APP_LANGUAGE = language;
  await build({ build: { emptyOutDir: index === 0 } });
  if (language === SOURCE_LANGUAGE) continue;
  const english = clientFiles(SOURCE_LANGUAGE);
  const own = clientFiles(language);
  renameSync(join(outDir, english.html), join(outDir, own.html));
  renameSync(join(outDir, english.manifest), join(outDir, own.manifest));
}
