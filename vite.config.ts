import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Keeps src/shared/generated in step with schemas/ while `npm run dev` runs: a saved
 * schema edit regenerates the validators and types, and the page reloads.
 */
function schemaCodegen(): Plugin {
  const generate = () => execFileSync('npx', ['tsx', 'scripts/generate.ts'], { stdio: 'inherit' });
  return {
    name: 'schema-codegen',
    apply: 'serve',
    configureServer(server) {
      generate();
      server.watcher.add('schemas');
      server.watcher.on('change', (path) => {
        if (!/[\\/]schemas[\\/].*\.json$/.test(path)) return;
        try {
          generate();
        } catch {
          server.config.logger.error(`schema-codegen: ${path} has an error; run \`npm run check:schemas\``);
        }
      });
    },
  };
}

/** The browser client. `npm run build` writes dist/client, which the server serves. */
export default defineConfig({
  plugins: [react(), schemaCodegen()],
  resolve: {
    alias: { 'markdown-to-jsx/react': fileURLToPath(new URL('./src/client/form-theme/plain-markdown.tsx', import.meta.url)) },
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    // assets as files, never inlined: the Content-Security-Policy stays strict
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 800,
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: Object.fromEntries(['/api', '/public', '/service', '/lookup', '/healthz'].map((prefix) => [
      prefix, { target: `http://127.0.0.1:${process.env.API_PORT ?? 3001}`, changeOrigin: false },
    ])),
  },
});
