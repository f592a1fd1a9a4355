/**
 * The file a worker thread or process starts from, beside the module that starts it. Built
 * (dist/server, scripts/build-server.mjs) every module is plain JavaScript in one folder and
 * the worker's file is `<name>.js` there; run from the sources (tests, `npm run dev`) it is
 * the TypeScript module, which only starts under tsx's loader.
 */
export function siblingEntry(moduleUrl: string, name: string): { url: URL; typescript: boolean } {
  const typescript = !moduleUrl.endsWith('.js');
  return { url: new URL(`./${name}.${typescript ? 'ts' : 'js'}`, moduleUrl), typescript };
}
