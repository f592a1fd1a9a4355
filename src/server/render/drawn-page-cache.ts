import { LRUCache } from 'lru-cache';
import partner from '../../../schemas/partner.json';
import { localDate } from '../../shared/dates/local-date.ts';
import type { Language } from '../../shared/i18n/languages.ts';
import { sha256 } from '../lib/secrets.ts';
import type { RenderJob, RenderPool } from './render-pool.ts';

/**
 * A drawn page is a pure function of the language, the address, the applicant's reads and the
 * partner's date (banners, year lists and date bounds all follow "today" there,
 * shared/dates/local-date.ts). So the same page for the same reads on the same day is drawn
 * once: an anonymous visitor's empty page for every such visitor, and an applicant's page again
 * only once they have changed something. Drawing the about page takes tens of milliseconds of a
 * worker's CPU, which every visit otherwise waits for.
 */

/** Enough for a few hundred pages (about's markup is about 50 KB), a small part of the server's memory. */
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

export interface DrawnPageCacheOptions {
  maxBytes?: number;
  /** the clock "today" is read from (tests give their own) */
  now?: () => Date;
}

function keyOf(language: Language, job: RenderJob, today: string): string {
  // the key holds a digest of the applicant's reads, not their answers
  const reads = job.data === null ? '' : sha256(JSON.stringify(job.data));
  return JSON.stringify([language, today, job.path, job.search, reads]);
}

/** The pool's drawings, kept by what they depend on; failures (null) are not kept. */
export function withDrawnPageCache(pool: RenderPool, { maxBytes = DEFAULT_MAX_BYTES, now = () => new Date() }: DrawnPageCacheOptions = {}): RenderPool {
  // sized by characters, about a byte each in markup
  const drawn = new LRUCache<string, string>({ maxSize: maxBytes, sizeCalculation: (markup) => Math.max(1, markup.length) });
  const today = () => localDate(now(), partner.time_zone);
  return {
    async render(language, job) {
      const key = keyOf(language, job, today());
      const kept = drawn.get(key);
      if (kept !== undefined) return kept;
      const markup = await pool.render(language, job);
      if (markup !== null) drawn.set(key, markup);
      return markup;
    },
    warm: () => pool.warm(),
    close: () => pool.close(),
  };
}
