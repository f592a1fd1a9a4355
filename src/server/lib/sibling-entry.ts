import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

/**
 * The file a worker thread or process starts from, beside the module that starts it. Built
 * (dist/server, scripts/build-server.mjs) every module is plain JavaScript in one folder and
 * the worker's file is `<name>.js` there; run from the sources (tests, `npm run dev`) it is
 * the TypeScript module, which only starts under tsx's loader.
 *
 * `BUILT_WORKERS_DIR` (a development setting) starts a source server's workers from a build
 * instead: the tests' in-process servers do, since a thread or process loaded through tsx
 * spends about half a second more CPU before it is ready, and the tests start hundreds. The
 * tests rebuild that folder whenever a source is newer (tests/helpers/built-server.ts).
 */
export function siblingEntry(moduleUrl: string, name: string, environment: NodeJS.ProcessEnv = process.env): { url: URL; typescript: boolean } {
  const typescript = !moduleUrl.endsWith('.js');
  const builtDir = environment.BUILT_WORKERS_DIR;
  if (typescript && builtDir) return { url: pathToFileURL(join(builtDir, `${name}.js`)), typescript: false };
  return { url: new URL(`./${name}.${typescript ? 'ts' : 'js'}`, moduleUrl), typescript };
}
