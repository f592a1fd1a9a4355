/**
 * The reference pages bench:form measures beside ours: a plain RJSF 6 page of
 * 150 text fields and a page with one bare input, built from bench/form/reference
 * by their own small Vite build (none of our config, aliases or chunking) and served as
 * static files by a server that does nothing else.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { startServerProcess } from '../load/server-process.ts';

const root = fileURLToPath(new URL('./reference/', import.meta.url));

export const REFERENCE_PAGES = ['plain-rjsf', 'bare-input'] as const;

/** Where the reference server sends a page with our server's security headers (serve-static.ts says why). */
const WITH_OUR_HEADERS = '/with-our-headers';

export interface ReferenceServer {
  /**
   * The address of a page by name (a reference page, or one written to `staticDir` later);
   * `ourHeaders`: served with our server's security headers.
   */
  url(page: string, options?: { ourHeaders?: boolean }): string;
  /** the folder the server sends files from (as they are on disk at each request) */
  staticDir: string;
  close(): Promise<void>;
}

/** Builds the reference pages and serves them; `host` names this machine in their addresses. */
export async function buildAndServeReferencePages(host = 'localhost'): Promise<ReferenceServer> {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-form-reference-'));
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    plugins: [react()],
    build: {
      outDir,
      emptyOutDir: true,
      // source maps, as our build has, so `npm run bench:form:profile` can name the packages on both sides
      sourcemap: true,
      chunkSizeWarningLimit: 2000,
      rollupOptions: { input: Object.fromEntries(REFERENCE_PAGES.map((page) => [page, join(root, page, 'index.html')])) },
    },
  });
  const server = await startServerProcess({ dataDir: outDir, entry: 'bench/form/serve-static.ts', env: { STATIC_DIR: outDir, WITH_OUR_HEADERS } });
  const base = `http://${host}:${new URL(server.url).port}`;
  return {
    url: (page, options) => `${base}${options?.ourHeaders ? WITH_OUR_HEADERS : ''}/${page}/`,
    staticDir: outDir,
    close: async () => {
      await server.stop();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
