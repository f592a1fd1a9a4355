// A worker thread starts without the tsx loader the server runs under (and Vitest's does not
// reach it either): this plain module loads the TypeScript worker through tsx's API.
import { tsImport } from 'tsx/esm/api';

await tsImport('./pglite-worker.ts', import.meta.url);
