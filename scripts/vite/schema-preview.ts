/**
 * The staff preview's part of the dev server (`npm run preview`): it runs check:schemas
 * (its JSON format) when the server starts and after every saved schema file, answers the
 * page with the latest report, pushes each new one to open pages, and reloads them when
 * the generated form changes, so a saved edit shows in about a second. It also switches
 * the texts' language the pages are drawn in, English or a translation, at staff's choice.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';
import { CHECK_EVENT, CHECK_URL, LANGUAGE_URL } from '../../preview/check-channel.ts';
import { isLanguage } from '../../src/shared/i18n/languages.ts';
import { onSettledSchemaChange } from './settled-schema-change.ts';

const GENERATED_FILE = /(^|[\\/])src[\\/]shared[\\/]generated[\\/]/;
/** one save writes several generated files, each reported on its own: one reload once they are all written */
const RELOAD_SETTLE_MS = 150;

/** `npm run check:schemas -- --format json` in the project, its report parsed (it exits 1 when it finds errors). */
function checkSchemas(root: string): Promise<unknown> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', join('scripts', 'check-schemas.ts'), '--format', 'json'], { cwd: root, maxBuffer: 16 * 1024 * 1024 }, (_error, stdout, stderr) => {
      try {
        resolve(JSON.parse(stdout));
      } catch {
        resolve({ ok: false, errors: [{ kind: 'bad configuration', file: '', key: '', message: `check:schemas could not finish: ${stderr.trim()}`, fix: 'run npm run check:schemas' }], warnings: [] });
      }
    });
  });
}

export function schemaPreview(): Plugin {
  let latest: Promise<unknown>;
  let server: ViteDevServer;
  let reload: ReturnType<typeof setTimeout> | undefined;

  const recheck = async () => {
    const report = checkSchemas(server.config.root);
    latest = report;
    server.ws.send({ type: 'custom', event: CHECK_EVENT, data: await report });
  };

  return {
    name: 'schema-preview',
    apply: 'serve',
    configureServer(devServer) {
      server = devServer;
      latest = checkSchemas(server.config.root);
      onSettledSchemaChange(server, recheck);
      // the texts' language: the language build reads APP_LANGUAGE at each module load, so every
      // module is loaded again in the language chosen, and the page reloads with them
      server.middlewares.use(LANGUAGE_URL, (request, response) => {
        const language = new URL(request.url ?? '', 'http://preview').searchParams.get('lang') ?? '';
        if (!isLanguage(language)) {
          response.statusCode = 400;
          response.end();
          return;
        }
        process.env.APP_LANGUAGE = language;
        server.moduleGraph.invalidateAll();
        response.statusCode = 204;
        response.end();
      });
      server.middlewares.use(CHECK_URL, (_request, response) => {
        void latest.then((report) => {
          response.setHeader('content-type', 'application/json');
          response.end(JSON.stringify(report));
        });
      });
    },
    handleHotUpdate({ file }) {
      // the form model is read at module level in many places: a whole new page is the sure way
      if (!GENERATED_FILE.test(file)) return;
      clearTimeout(reload);
      reload = setTimeout(() => server.ws.send({ type: 'full-reload' }), RELOAD_SETTLE_MS);
      return [];
    },
    // the dev server's close: no reload is sent after it
    closeBundle() {
      clearTimeout(reload);
    },
  };
}
