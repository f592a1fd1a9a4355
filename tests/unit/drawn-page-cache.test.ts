import { describe, expect, it } from 'vitest';
import partner from '../../schemas/partner.json';
import { withDrawnPageCache } from '../../src/server/render/drawn-page-cache.ts';
import type { RenderJob, RenderPool } from '../../src/server/render/render-pool.ts';

/** A pool that draws each job as a new string and counts its drawings; `fail` answers null, as a slow or broken worker does. */
function countingPool(options: { fail?: boolean } = {}) {
  let drawings = 0;
  const pool: RenderPool = {
    async render(language, job) {
      drawings += 1;
      return options.fail ? null : `<main>${language} ${job.path}${job.search} ${JSON.stringify(job.data)} #${drawings}</main>`;
    },
    warm() {},
    async close() {},
  };
  return { pool, drawings: () => drawings };
}

/** The zone's offset from UTC at that moment, as +hh:mm. */
function offsetOf(timeZone: string, at: Date): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(at).find((part) => part.type === 'timeZoneName')!.value;
  return name === 'GMT' ? '+00:00' : name.slice(3);
}

const anonymous = (path: string, search = ''): RenderJob => ({ path, search, data: null });
const signedIn = (answer: Record<string, string>): RenderJob => ({ path: '/about', search: '', data: { profile: { answer }, addAnother: {}, tabs: {} } });

describe('drawn pages kept by what they depend on', () => {
  it('draws the same page for the same reads once, and gives the first drawing again', async () => {
    const { pool, drawings } = countingPool();
    const cached = withDrawnPageCache(pool);
    const first = await cached.render('en', anonymous('/about'));
    expect(await cached.render('en', anonymous('/about'))).toBe(first);
    expect(await cached.render('en', signedIn({ first_name: 'Ana' }))).not.toBe(first);
    expect(await cached.render('en', signedIn({ first_name: 'Ana' }))).toContain('#2');
    expect(drawings()).toBe(2);
  });

  it('draws again for another language, address, query or set of answers', async () => {
    const { pool, drawings } = countingPool();
    const cached = withDrawnPageCache(pool);
    await cached.render('en', anonymous('/about'));
    await cached.render('es', anonymous('/about'));
    await cached.render('en', anonymous('/education-ug'));
    await cached.render('en', anonymous('/about', '?saved=1'));
    await cached.render('en', signedIn({ first_name: 'Ana' }));
    // one answer changed: the applicant's page shows it
    const changed = await cached.render('en', signedIn({ first_name: 'Anna' }));
    expect(changed).toContain('Anna');
    expect(drawings()).toBe(6);
  });

  it('draws again on the partner\'s next day, when banners and year lists may change', async () => {
    // noon in the partner's zone, then an hour later (the same day), then a day later
    const noon = new Date(`2026-06-15T12:00:00${offsetOf(partner.time_zone, new Date('2026-06-15T12:00:00Z'))}`);
    let now = noon;
    const { pool, drawings } = countingPool();
    const cached = withDrawnPageCache(pool, { now: () => now });
    await cached.render('en', anonymous('/about'));
    now = new Date(noon.getTime() + 60 * 60_000);
    await cached.render('en', anonymous('/about'));
    expect(drawings()).toBe(1);
    now = new Date(noon.getTime() + 24 * 60 * 60_000);
    expect(await cached.render('en', anonymous('/about'))).toContain('#2');
    expect(drawings()).toBe(2);
  });

  it('keeps no failed drawing, so the next visit asks the workers again', async () => {
    const { pool, drawings } = countingPool({ fail: true });
    const cached = withDrawnPageCache(pool);
    expect(await cached.render('en', anonymous('/about'))).toBeNull();
    expect(await cached.render('en', anonymous('/about'))).toBeNull();
    expect(drawings()).toBe(2);
  });

  it('forgets the least recently used drawings beyond its size', async () => {
    const { pool, drawings } = countingPool();
    const size = (await pool.render('en', anonymous('/a')))!.length;
    // room for two of these drawings, not three
    const cached = withDrawnPageCache(pool, { maxBytes: 2 * size + 1 });
    await cached.render('en', anonymous('/a'));
    await cached.render('en', anonymous('/b'));
    await cached.render('en', anonymous('/a'));
    await cached.render('en', anonymous('/c'));
    expect(drawings()).toBe(4);
    // /b was the least recently used: drawn again; /a kept
    await cached.render('en', anonymous('/a'));
    expect(drawings()).toBe(4);
    await cached.render('en', anonymous('/b'));
    expect(drawings()).toBe(5);
  });
});
