/**
 * `npm run bench:form:profile`: where a first visit's main thread goes, ours beside plain
 * RJSF's, in the same run. Each page is visited afresh (--visits=5, --rate=1 for the CPU
 * throttling) under Chromium's sampling profiler, until the first field shows and the main
 * thread is idle, as `npm run bench:form` times it. Self time is summed by package (or by
 * folder of ours under src/), through each script's source map fetched from its server;
 * `(program)` is the browser's own work (style, layout, parsing and compiling), `(idle)`
 * the waits (network, timers). Prints milliseconds per visit.
 *
 *   npm run bench:form:profile -- --pages=about,education-ug --visits=5 --rate=4 --no-build
 */
import { parseArgs } from 'node:util';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import type { Browser } from 'playwright-core';
import { HOST, openUntilInteractive, startFormBench } from './bench-setup.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: 'education-ug' },
    visits: { type: 'string', default: '5' },
    rate: { type: 'string', default: '1' },
    top: { type: 'string', default: '16' },
    'no-build': { type: 'boolean', default: false },
  },
});
const VISITS = Number(values.visits);
const RATE = Number(values.rate);

interface ProfileNode { id: number; callFrame: { url: string; functionName: string; lineNumber: number; columnNumber: number } }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** A script's source map from the server that sent the script, or null (none, or not JSON). */
const sourceMaps = new Map<string, Promise<TraceMap | null>>();
function sourceMapOf(scriptUrl: string): Promise<TraceMap | null> {
  if (!sourceMaps.has(scriptUrl)) {
    sourceMaps.set(scriptUrl, fetch(`${scriptUrl.replace(`//${HOST}:`, '//127.0.0.1:')}.map`)
      .then(async (response) => (response.ok ? new TraceMap(await response.json()) : null))
      .catch(() => null));
  }
  return sourceMaps.get(scriptUrl)!;
}

/** Where a sampled frame's code comes from: a package, a folder of ours, or the browser's own work. */
async function originOf({ url, functionName, lineNumber, columnNumber }: ProfileNode['callFrame']): Promise<string> {
  if (!url) return functionName.startsWith('(') ? functionName : `(${functionName || 'native'})`;
  if (!url.startsWith('http')) return '(browser or test driver)';
  const map = await sourceMapOf(url);
  const source = map ? originalPositionFor(map, { line: lineNumber + 1, column: columnNumber }).source : null;
  if (!source) return '(scripts without a source map)';
  const nodeModule = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (nodeModule) return nodeModule[1]!;
  const ours = /\/src\/([^/]+\/[^/]+)/.exec(source);
  return ours ? `src/${ours[1]}` : source.replace(/^(\.\.\/)+/, '');
}

async function profileVisit(browser: Browser, url: string): Promise<Map<string, number>> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await openUntilInteractive(page, url);
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    const selfMs = new Map<number, number>();
    profile.samples.forEach((id, index) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index + 1] ?? 0) / 1000));
    const byOrigin = new Map<string, number>();
    for (const node of profile.nodes) {
      const ms = selfMs.get(node.id);
      if (!ms) continue;
      const origin = await originOf(node.callFrame);
      byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + ms);
    }
    return byOrigin;
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const { url, reference, browser, close } = await startFormBench({ build: !values['no-build'] });
  const targets = [
    ...values.pages.split(',').map((page) => ({ name: page.trim(), url: `${url}/${page.trim()}` })),
    { name: 'plain-rjsf', url: reference.url('plain-rjsf') },
  ];
  const totals = new Map(targets.map(({ name }) => [name, new Map<string, number>()]));
  try {
    for (let visit = 0; visit < VISITS; visit++) {
      for (const { name, url: address } of targets) {
        for (const [origin, ms] of await profileVisit(browser, address)) totals.get(name)!.set(origin, (totals.get(name)!.get(origin) ?? 0) + ms);
      }
    }
  } finally {
    await close();
  }

  // rows: the largest origins of every target; columns: the targets
  const perVisit = (name: string, origin: string) => (totals.get(name)!.get(origin) ?? 0) / VISITS;
  const origins = [...new Set(targets.flatMap(({ name }) => [...totals.get(name)!].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)).map(([origin]) => origin)))]
    .sort((a, b) => perVisit(targets[0]!.name, b) - perVisit(targets[0]!.name, a));
  const header = ['where', ...targets.map(({ name }) => `${name} ms`)];
  console.log(`\nMain-thread self time per first visit, by origin: mean of ${VISITS} visits at ${RATE}x CPU\n`);
  console.log(`${header.join(' | ')}\n${header.map(() => '---').join(' | ')}`);
  for (const origin of origins) console.log([origin, ...targets.map(({ name }) => perVisit(name, origin).toFixed(1))].join(' | '));
  const busy = (name: string) => [...totals.get(name)!].filter(([origin]) => origin !== '(idle)').reduce((sum, [, ms]) => sum + ms, 0) / VISITS;
  console.log(['**all but (idle)**', ...targets.map(({ name }) => busy(name).toFixed(1))].join(' | '));
}

await main();
