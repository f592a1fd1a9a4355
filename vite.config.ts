import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { buildLanguage, languageBuild } from './scripts/vite/language-build.ts';
import { onSettledSchemaChange } from './scripts/vite/settled-schema-change.ts';
import { blueprintClassesCheck, withoutUnusedBlueprintRules } from './scripts/vite/unused-blueprint-rules.ts';
import { withoutDarkTheme } from './scripts/vite/without-dark-theme.ts';
import { withoutIconFontGlyphs } from './scripts/vite/without-icon-font-glyphs.ts';

/**
 * Keeps src/shared/generated in step with schemas/ while `npm run dev` runs: a saved
 * schema edit regenerates the form model and validators in this process (about 200 ms),
 * and the page reloads with it.
 */
function schemaCodegen(): Plugin {
  return {
    name: 'schema-codegen',
    apply: 'serve',
    async configureServer(server) {
      const generate = async () => {
        const { generateAll } = await server.ssrLoadModule('/scripts/generate/run.ts') as typeof import('./scripts/generate/run.ts');
        return generateAll({ types: false });
      };
      execFileSync('node', ['--import', 'tsx', 'scripts/generate.ts'], { stdio: 'inherit' });
      onSettledSchemaChange(server, (paths) => generate().then(
        ({ changed }) => void (changed.length && server.config.logger.info(`schema-codegen: ${paths.join(', ')} -> ${changed.join(', ')}`)),
        (error: Error) => server.config.logger.error(`schema-codegen: ${error.message}\nRun \`npm run check:schemas\` for details.`),
      ));
    },
  };
}

/** Library modules our pages never need, each with the small stand-in the build uses instead. */
const STAND_INS: [RegExp, string][] = [
  [/@blueprintjs[\\/]icons[\\/]lib[\\/]esm[\\/]iconNames\.js$/, './src/client/lib/icon-names.ts'],
  [/@rjsf[\\/]utils[\\/]lib[\\/]schema[\\/]shallowAllOfMerge\.js$/, './src/client/lib/no-all-of-merge.ts'],
  [/@rjsf[\\/]utils[\\/]lib[\\/]schema[\\/]omitExtraData\.js$/, './src/client/lib/no-omit-extra-data.ts'],
  [/@rjsf[\\/]core[\\/]lib[\\/]components[\\/]fields[\\/](ArrayField|MultiSchemaField|LayoutGridField|LayoutMultiSchemaField)\.js$/, './src/client/form-theme/unused-field.tsx'],
];

/**
 * Replaces the STAND_INS modules when a library imports them (relative imports inside a
 * package, which `resolve.alias` cannot aim at): about 20 KB gzip off the first visit.
 */
function standIns(): Plugin {
  return {
    name: 'stand-ins',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer?.includes('node_modules')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const standIn = resolved && STAND_INS.find(([pattern]) => pattern.test(resolved.id));
      return standIn ? fileURLToPath(new URL(standIn[1], import.meta.url)) : resolved;
    },
  };
}

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside each script and style sheet, at the
 * highest levels: the server sends them as they are (@fastify/static preCompressed), so
 * no request pays for compression and the visitor gets the smallest bytes.
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    async writeBundle({ dir }, bundle) {
      await Promise.all(Object.keys(bundle).filter((name) => /\.(js|css|svg)$/.test(name)).map(async (name) => {
        const path = join(dir!, name);
        const data = await readFile(path);
        const brotli = await promisify(brotliCompress)(data, {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
        });
        await Promise.all([writeFile(`${path}.br`, brotli), writeFile(`${path}.gz`, await promisify(gzip)(data, { level: 9 }))]);
      }));
    },
  };
}

/**
 * What joins the `app-core` chunk: with these, a form page's first visit is 4 scripts
 * (entry, runtime, app-core, the page), not 24. Blueprint's popovers stay out: the account
 * popover loads when reached for (AccountPopover.tsx).
 */
const APP_CORE_MODULES = [
  /src[\\/]client[\\/](lib|session)[\\/](?!upload-document)/, // the client's plumbing, but the upload flow
  // Blueprint's components; its style sheet stays with the entry's, which must not load this chunk (BOOT_MODULES)
  /@blueprintjs[\\/]core[\\/](?!lib[\\/]esm[\\/]components[\\/]popover)(?!.*\.css$)/,
  // the small modules every form page shares
  /src[\\/]client[\\/]features[\\/](frame[\\/]AccountButton|lifecycle[\\/]|lookups[\\/](school-parts|api[\\/])|form[\\/](section-reach|typed-before-start))/,
  /src[\\/]client[\\/]form-theme[\\/]form-context/,
  /src[\\/]shared[\\/](answers[\\/]visibility|documents[\\/])/,
];

/**
 * What the entry runs before the app (src/client/main.tsx names the page's language
 * first), kept apart from `app-core`, which the entry must not load before the app starts;
 * and the texts a first visit shows (this language's, scripts/vite/language-build.ts), in
 * one chunk: in one piece they compress better than spread over the chunks that show them.
 */
const BOOT_MODULES = [
  /schemas[\\/]text[\\/]/, /schemas[\\/]auth[\\/]messages\.json$/, /schemas[\\/](banners|documents|partner)\.json$/, /src[\\/]shared[\\/]generated[\\/]form-model\.json$/,
  /src[\\/]shared[\\/](i18n[\\/](active-language|languages)|text[\\/]plural)\.ts$/, /vite[\\/]preload-helper/,
];

/** A build step of the browser's bundle only: the server's drawing of the pages (an SSR build, scripts/build-client.ts) has no assets to compress, style sheets to check or statement to write. */
function clientBuildOnly(plugin: Plugin): Plugin {
  return { ...plugin, apply: (_config, env) => env.command === 'build' && !env.isSsrBuild };
}

/** The browser client. `npm run build` writes dist/client, which the server serves. */
export default defineConfig({
  plugins: [react(), languageBuild(buildLanguage), schemaCodegen(), standIns(), clientBuildOnly(precompress()), clientBuildOnly(blueprintClassesCheck())],
  css: { postcss: { plugins: [withoutDarkTheme(), withoutUnusedBlueprintRules(), withoutIconFontGlyphs()] } },
  resolve: {
    alias: {
      'markdown-to-jsx/react': fileURLToPath(new URL('./src/client/form-theme/plain-markdown.tsx', import.meta.url)),
      'fast-uri': fileURLToPath(new URL('./src/client/lib/uri-resolver.ts', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // .vite/manifest.json: the server reads which chunks each page route needs, to preload them from the HTML
    manifest: true,
    target: 'es2022',
    // assets as files, never inlined: the Content-Security-Policy stays strict
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 800,
    rollupOptions: {
      output: {
        // the small modules every page shares in one chunk (a chunk each costs a request and its own
        // compression); React in one of its own, whose hashed name outlives our releases, so a
        // returning applicant's cache keeps it when only our code changed
        codeSplitting: {
          groups: [
            { name: 'boot', priority: 3, test: new RegExp(BOOT_MODULES.map((pattern) => pattern.source).join('|')) },
            { name: 'react', priority: 2, test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'app-core', priority: 1, test: new RegExp(APP_CORE_MODULES.map((pattern) => pattern.source).join('|')) },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: Object.fromEntries(['/api', '/public', '/service', '/lookup', '/healthz'].map((prefix) => [
      prefix, { target: `http://127.0.0.1:${process.env.API_PORT ?? 3001}`, changeOrigin: false },
    ])),
  },
});
