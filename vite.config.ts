import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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
      server.watcher.add('schemas');
      server.watcher.on('change', (path) => {
        if (!/(^|[\\/])schemas[\\/].*\.json$/.test(path)) return;
        generate().then(
          ({ changed }) => changed.length && server.config.logger.info(`schema-codegen: ${path} -> ${changed.join(', ')}`),
          (error: Error) => server.config.logger.error(`schema-codegen: ${error.message}\nRun \`npm run check:schemas\` for details.`),
        );
      });
    },
  };
}

/** The browser client. `npm run build` writes dist/client, which the server serves. */
export default defineConfig({
  plugins: [react(), schemaCodegen()],
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
    target: 'es2022',
    // assets as files, never inlined: the Content-Security-Policy stays strict
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 800,
    rollupOptions: {
      output: {
        // the small modules every page shares in one chunk (a chunk each costs a request and its own compression)
        codeSplitting: { groups: [{ name: 'app-core', test: /src[\\/]client[\\/](lib|session)[\\/](?!upload-document)/ }] },
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
