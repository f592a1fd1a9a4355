import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Language } from '../../shared/i18n/languages.ts';

/**
 * The worker threads that draw the form pages (dist/ssr/<lang>/render-worker.js, built by
 * scripts/build-client.ts from src/client/ssr/). Drawing a page is a few tens of
 * milliseconds of CPU work, which must not hold up the event loop that answers every other
 * request; a few workers per language take it, one page at a time each. A page that is not
 * drawn in time, or whose drawing fails, is answered null: the server sends the plain page.
 */

export interface RenderJob {
  path: string;
  search: string;
  /** the signed-in applicant's reads (profile, add-another counts, tabs), as the API answers them */
  data: { profile: unknown; addAnother: unknown; tabs: unknown } | null;
}

export interface RenderPool {
  /** The page's markup for the root element, or null (not built, failed, too slow). */
  render(language: Language, job: RenderJob): Promise<string | null>;
  /** Starts the workers now rather than at the first page. */
  warm(): void;
  close(): Promise<void>;
}

interface Pending extends RenderJob {
  id: number;
  done(html: string | null): void;
  timer: ReturnType<typeof setTimeout>;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  current: Pending | null;
}

type Reply = { ready: true } | { id: number; html: string } | { id: number; error: string };

export interface RenderPoolOptions {
  /** dist/ssr: one folder per language */
  dir: string;
  languages: readonly Language[];
  workersPerLanguage: number;
  /** from the request to the markup, the wait for a free worker included */
  timeoutMs: number;
  onError(message: string): void;
}

export function createRenderPool({ dir, languages, workersPerLanguage, timeoutMs, onError }: RenderPoolOptions): RenderPool {
  const scriptOf = (language: Language) => join(dir, language, 'render-worker.js');
  const slots = new Map<Language, Slot[]>();
  const queues = new Map<Language, Pending[]>(languages.map((language) => [language, []]));
  let nextId = 1;
  let closed = false;

  function start(language: Language): Slot {
    const slot: Slot = { worker: new Worker(scriptOf(language), { workerData: { language } }), ready: false, current: null };
    slot.worker.unref();
    slot.worker.on('message', (reply: Reply) => {
      if ('ready' in reply) {
        slot.ready = true;
      } else if (slot.current?.id === reply.id) {
        const job = slot.current;
        slot.current = null;
        if ('error' in reply) onError(`drawing ${job.path} failed: ${reply.error}`);
        finish(job, 'html' in reply ? reply.html : null);
      }
      next(language);
    });
    slot.worker.on('error', (error) => onError(`page drawing worker (${language}) failed: ${error.message}`));
    slot.worker.on('exit', () => {
      const list = slots.get(language) ?? [];
      list.splice(list.indexOf(slot), 1);
      if (slot.current) finish(slot.current, null);
      slot.current = null;
    });
    return slot;
  }

  function slotsOf(language: Language): Slot[] | null {
    if (closed || !existsSync(scriptOf(language))) return null;
    let list = slots.get(language);
    if (!list) slots.set(language, (list = []));
    while (list.length < workersPerLanguage) list.push(start(language));
    return list;
  }

  function finish(job: Pending, html: string | null) {
    clearTimeout(job.timer);
    job.done(html);
  }

  function next(language: Language) {
    const queue = queues.get(language)!;
    const list = slots.get(language) ?? [];
    for (const slot of list) {
      if (!queue.length) return;
      if (!slot.ready || slot.current) continue;
      const job = queue.shift()!;
      slot.current = job;
      slot.worker.postMessage({ id: job.id, path: job.path, search: job.search, data: job.data });
    }
  }

  return {
    render(language, job) {
      const list = slotsOf(language);
      if (!list) return Promise.resolve(null);
      return new Promise((resolve) => {
        const pending: Pending = {
          ...job,
          id: nextId++,
          done: resolve,
          timer: setTimeout(() => {
            const queue = queues.get(language)!;
            const at = queue.indexOf(pending);
            if (at >= 0) queue.splice(at, 1);
            // a worker still on it is stuck or far behind: it is replaced, the page goes out plain
            const slot = list.find((item) => item.current === pending);
            if (slot) {
              slot.current = null;
              void slot.worker.terminate();
            }
            onError(`drawing ${job.path} took over ${timeoutMs} ms`);
            resolve(null);
          }, timeoutMs),
        };
        queues.get(language)!.push(pending);
        next(language);
      });
    },
    warm() {
      for (const language of languages) slotsOf(language);
    },
    async close() {
      closed = true;
      const all = [...slots.values()].flat();
      slots.clear();
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
  };
}
