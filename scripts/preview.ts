/**
 * `npm run preview`: the staff preview of the application, for whoever edits schemas/.
 * Every page from the working schema files, each question marked with its key, type,
 * required rule, maxLength, messages and options, conditional sections expanded and
 * labelled, check:schemas problems beside their questions, a sample applicant of each
 * kind, and a reload within a second of a saved edit. A development server only: the
 * production build has no preview (vite.config.ts builds index.html alone).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'vite';
import { schemaPreview } from './vite/schema-preview.ts';

if (process.env.NODE_ENV === 'production') {
  console.error('npm run preview is for editing schemas on a workstation; it does not run with NODE_ENV=production.');
  process.exit(2);
}

const root = process.cwd();
const port = Number(process.env.PORT ?? 3100);
const host = process.env.HOST ?? '127.0.0.1';
const server = await createServer({
  root,
  plugins: [schemaPreview()],
  // its own cache of pre-bundled packages, so it never disturbs `npm run dev`'s (or another copy's)
  cacheDir: join(tmpdir(), `schema-preview-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`),
  optimizeDeps: { entries: ['preview/index.html'] },
  // the development server pre-bundles RJSF's default ajv validator, which needs the real
  // fast-uri; the app's small stand-in (vite.config.ts) serves the production build only
  resolve: { alias: { 'fast-uri': createRequire(import.meta.url).resolve('fast-uri') } },
  server: { port, host, strictPort: true },
});
await server.listen();
console.log(`Staff preview: http://${host}:${port}/preview/`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await server.close();
    process.exit(0);
  });
}
