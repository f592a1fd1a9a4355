import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The browser client. `npm run build` writes dist/client, which the server serves. */
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // assets as files, never inlined: the Content-Security-Policy stays strict
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 800,
    target: 'es2022',
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: Object.fromEntries(['/api', '/public', '/service', '/lookup', '/healthz'].map((prefix) => [
      prefix, { target: `http://127.0.0.1:${process.env.API_PORT ?? 3001}`, changeOrigin: false },
    ])),
  },
});
