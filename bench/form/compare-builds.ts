/**
 * `npm run bench:form:compare -- --against=DIR`: this tree's build and another build (DIR,
 * that build's dist/client) served at once by two servers of ours, each page visited
 * afresh in both in turn (the order swapped every round, so a busy moment of the machine
 * falls on both alike), with plain RJSF served with our headers as the yardstick. Prints,
 * per page, build and CPU rate, the medians of time to interactive (as `npm run bench:form`
 * times it) and of the renderer's main-thread time (Performance.getMetrics: all tasks,
 * script, style, layout). On a noisy machine two builds are told apart only side by side.
 *
 *   git worktree add /tmp/base HEAD~1 && (cd /tmp/base && npm ci && npm run build)
 *   npm run bench:form:compare -- --against=/tmp/base/dist/client --pages=about --visits=9 --rates=1,4
 *   npm run bench:form:compare -- --against=/tmp/base/dist/client --network=150/1600   (a slow mobile network)
 *   npm run bench:form:compare -- --against=/tmp/base/dist/client --first-key   (also "first key accepted", as bench:form times it)
 */
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { openUntilInteractive, startFormBench } from './bench-setup.ts';
import { firstKeyAccepted } from './first-key.ts';

const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    pages: { type: 'string', default: 'about,education-ug,final-steps' },
    visits: { type: 'string', default: '7' },
    rates: { type: 'string', default: '1,4' },
    // a slower network than this machine's loopback, as the browser's own throttling gives it:
    // round trip in ms / download in kbit/s (DevTools' "Slow 4G" is 150/1600)
    network: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    // also time "first key accepted" (as bench:form does) in a visit of its own
    'first-key': { type: 'boolean', default: false },
  },
});
const [latency, downloadKbps] = values.network ? values.network.split('/').map(Number) : [];
if (!values.against) throw new Error('--against=DIR: the other build\'s dist/client');

const METRICS = { task: 'TaskDuration', script: 'ScriptDuration', style: 'RecalcStyleDuration', layout: 'LayoutDuration' } as const;
type Figures = Record<'tti' | 'firstKey' | keyof typeof METRICS, number>;

async function visit(browser: Browser, url: string, rate: number): Promise<Figures> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await cdp.send('Performance.enable');
    if (latency !== undefined) {
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency, downloadThroughput: (downloadKbps! * 1000) / 8, uploadThroughput: (downloadKbps! * 1000) / 16 });
    }
    const tti = await openUntilInteractive(page, url);
    const { metrics } = await cdp.send('Performance.getMetrics');
    const seconds = Object.fromEntries(metrics.map(({ name, value }) => [name, value]));
    const figures = { tti } as Figures;
    for (const [key, name] of Object.entries(METRICS)) figures[key as keyof typeof METRICS] = (seconds[name] ?? 0) * 1000;
    return figures;
  } finally {
    await context.close();
  }
}

/** A timed visit and, with --first-key, a visit of its own for the first key. */
async function visitAndType(browser: Browser, url: string, rate: number): Promise<Figures> {
  const figures = await visit(browser, url, rate);
  figures.firstKey = values['first-key'] ? await firstKeyAccepted(browser, url, rate) : Number.NaN;
  return figures;
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

async function main(): Promise<void> {
  const bench = await startFormBench({ build: !values['no-build'], otherClient: values.against });
  const rates = values.rates.split(',').map(Number);
  const pages = values.pages.split(',').map((page) => page.trim());
  const sides = [['this build', bench.url], ['--against', bench.otherUrl!]] as const;
  const results = new Map<string, Figures[]>();
  const record = (key: string, figures: Figures) => results.set(key, [...(results.get(key) ?? []), figures]);
  try {
    for (let round = 0; round < Number(values.visits); round++) {
      for (const rate of rates) {
        for (const page of pages) {
          for (const [side, base] of round % 2 ? [...sides].reverse() : sides) record(`${page} | ${side} | ${rate}x`, await visitAndType(bench.browser, `${base}/${page}`, rate));
        }
        record(`plain RJSF, our headers | | ${rate}x`, await visitAndType(bench.browser, bench.reference.url('plain-rjsf', { ourHeaders: true }), rate));
      }
    }
  } finally {
    await bench.close();
  }
  const columns = ['tti', ...(values['first-key'] ? ['firstKey'] : []), ...Object.keys(METRICS)] as (keyof Figures)[];
  console.log(`\npage | build | CPU | ${columns.map((column) => `${column} ms`).join(' | ')}\n${['', '', '', ...columns].map(() => '---').join(' | ')}`);
  for (const [key, list] of [...results].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${key} | ${columns.map((column) => median(list.map((figures) => figures[column])).toFixed(0)).join(' | ')}`);
  }
  console.log(`\nMedians of ${values.visits} fresh visits each${values.network ? `, the network throttled to ${latency} ms round trip and ${downloadKbps} kbit/s down` : ''}; tti as bench:form times it, the rest the renderer's main thread (Performance.getMetrics).`);
}

await main();
