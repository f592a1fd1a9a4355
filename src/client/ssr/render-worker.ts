/**
 * A worker thread of the server's page drawing (src/server/render/render-pool.ts), built
 * once per language as dist/ssr/<lang>/render-worker.js (scripts/build-client.ts): the
 * language's texts are in place as in its client build. It answers each request with the
 * page's markup, or with the error that stopped it (the server then sends the plain page).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { applyLanguage } from '../i18n/apply-language.ts';
import { installPageGlobals } from './page-globals.ts';

export interface RenderRequest {
  id: number;
  path: string;
  search: string;
  data: import('./render-page.tsx').PageData | null;
}

export type RenderReply = { id: number; html: string } | { id: number; error: string };

const { language } = workerData as { language: string };
const globals = installPageGlobals(language);
// the app's modules read the page and the language as they load (as main.tsx names it first in the browser)
globals.visit('/about', '', false);
applyLanguage(language);
const { renderPage, renderReady } = await import('./render-page.tsx');
await renderReady;

parentPort!.on('message', ({ id, path, search, data }: RenderRequest) => {
  let reply: RenderReply;
  try {
    globals.visit(path, search, data !== null);
    reply = { id, html: renderPage(path, search, data) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.stack ?? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
parentPort!.postMessage({ ready: true });
