// A worker thread started from the sources (Vitest, `npm run dev`) inherits no TypeScript
// loader: this plain module loads the TypeScript worker through tsx's API. Built, the thread
// starts from dist/server/pglite-worker.js instead (pglite-thread.ts).
import { tsImport } from 'tsx/esm/api';

await tsImport('./pglite-worker.ts', import.meta.url);
