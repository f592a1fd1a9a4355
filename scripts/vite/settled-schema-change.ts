/**
 * Calls `run` once a saved schema file has settled: an editor's save (or writeFileSync)
 * truncates and then writes, and the file system may report only the first of the two,
 * so a file read at once can be empty. Waiting a moment reads the whole save; runs never
 * overlap, and a save made during a run starts one more run after it.
 */
import type { ViteDevServer } from 'vite';

const SCHEMA_FILE = /(^|[\\/])schemas[\\/].*\.json$/;
const SETTLE_MS = 60;

export function onSettledSchemaChange(server: ViteDevServer, run: (paths: string[]) => Promise<void>): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending = new Set<string>();
  let running: Promise<void> | undefined;

  const start = () => {
    if (running) return; // the run in progress starts the next when it ends
    const paths = [...pending];
    pending = new Set();
    running = run(paths).finally(() => {
      running = undefined;
      if (pending.size) timer = setTimeout(start, SETTLE_MS);
    });
  };

  server.watcher.add('schemas');
  for (const event of ['change', 'add'] as const) {
    server.watcher.on(event, (path: string) => {
      if (!SCHEMA_FILE.test(path)) return;
      pending.add(path);
      clearTimeout(timer);
      timer = setTimeout(start, SETTLE_MS);
    });
  }
}
