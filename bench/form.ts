/**
 * `npm run bench:form`: builds the production bundle, serves it, opens each page in
 * Chromium and prints, per page: keystroke-to-next-frame latency (median, p95, max over
 * 60 keystrokes in a field near the end of the page), with and without 4x CPU
 * throttling; time to interactive (median of several fresh visits); and the gzip size of
 * the JavaScript a first visit loads. In the same run it builds and measures two reference
 * pages (bench/form/reference: plain RJSF 6 with 150 text fields, and one bare
 * input), each served twice: as a static server sends it, and with our server's security
 * headers (which decide the page's renderer process in Chromium: serve-static.ts), and
 * prints our figures as ratios of both plain RJSF pages'. Each of our pages is also timed
 * as HTML alone (html-floor.ts): the floor any client of that page meets. Each page is
 * also visited by a browser asking for each other language (its own build) and printed
 * beside the English page. Then, for each page, the page as HTML alone and plain RJSF: the
 * first key accepted (a key typed into the first text field showing in it, from navigation)
 * beside plain RJSF's time to interactive, and a second visit's time to interactive with a
 * warm HTTP cache (first-key.ts); the page as HTML alone is the floor of both.
 * `--target-only` times only what the first-visit target's ratio reads, for runs of many visits.
 */
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { form } from '../src/shared/form/form-model-data.ts';
import { HOST, openUntilInteractive, startFormBench } from './form/bench-setup.ts';
import { firstKeyAccepted, warmSecondVisit } from './form/first-key.ts';
import { writeHtmlFloors } from './form/html-floor.ts';
import { percentile } from './load/stats.ts';
import { formatSpread, ratioSpread } from './form/ratio-spread.ts';
import { REFERENCE_PAGES } from './form/reference-pages.ts';
import { languageAutonym, OVERLAY_LANGUAGES, SOURCE_LANGUAGE, type Language } from '../src/shared/i18n/languages.ts';

const KEYSTROKES = 60;
const THROTTLES = [1, 4] as const;
/** Fresh visits per page and CPU rate; time to interactive is their median (one visit is noise on a shared machine). */
const VISITS = Number(process.argv.find((arg) => arg.startsWith('--visits='))?.slice('--visits='.length) ?? 3);
/**
 * Only what the restated first-visit target reads (each page, each page as HTML alone, plain
 * RJSF and the bare input; no typing, other language, first key or warm visit), so that a run
 * can afford the many visits that pin its ratio down.
 */
const TARGET_ONLY = process.argv.includes('--target-only');

const percentileOf = (values: number[], p: number) => percentile([...values].sort((a, b) => a - b), p);

async function keystrokeLatencies(page: Page, selector: string): Promise<number[]> {
  await page.evaluate(() => {
    const samples: number[] = [];
    (window as unknown as { __samples: number[] }).__samples = samples;
    window.addEventListener('keydown', (event) => {
      const start = event.timeStamp;
      requestAnimationFrame(() => samples.push(performance.now() - start));
    }, { capture: true });
  });
  const field = page.locator(selector);
  await field.scrollIntoViewIfNeeded();
  await field.click();
  const text = 'The quick brown fox jumps over the lazy dog again and again';
  for (let index = 0; index < KEYSTROKES; index++) {
    await page.keyboard.press(text[index % text.length] === ' ' ? 'Space' : text[index % text.length]!);
    await page.waitForTimeout(30);
  }
  await page.waitForTimeout(300);
  return page.evaluate(() => (window as unknown as { __samples: number[] }).__samples);
}

/** The last plain text field of the page: typing there exercises the whole page. */
async function lastTextField(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const inputs = [...document.querySelectorAll<HTMLInputElement>('[data-page] input[type="text"]:not([readonly])')];
    const last = inputs[inputs.length - 1];
    return last ? `#${CSS.escape(last.id)}` : undefined;
  });
}

interface Visit {
  interactive: number;
  scriptsKb: number;
  samples: number[];
  field?: string;
}

/** One fresh visit (new context, empty cache) by a browser that asks for `language`; typing in the last text field if asked. */
async function visit(browser: Browser, url: string, throttle: number, typing: boolean, language: Language = SOURCE_LANGUAGE): Promise<Visit> {
  const context = await browser.newContext({ extraHTTPHeaders: { 'accept-language': language } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    const scripts = new Set<string>();
    page.on('response', (response) => {
      if (response.url().endsWith('.js')) scripts.add(response.url());
    });
    const interactive = await openUntilInteractive(page, url);
    const field = typing ? await lastTextField(page) : undefined;
    const samples = field ? await keystrokeLatencies(page, field) : [];
    return { interactive, samples, field, scriptsKb: await gzipKb(scripts) };
  } finally {
    await context.close();
  }
}

/** The scripts' gzip size, read after the visit is timed (reading bodies meanwhile would slow the visit). */
async function gzipKb(urls: Set<string>): Promise<number> {
  let bytes = 0;
  for (const address of urls) {
    const response = await fetch(address.replace(`//${HOST}:`, '//127.0.0.1:'), { headers: { 'accept-encoding': 'identity' } });
    bytes += gzipSync(Buffer.from(await response.arrayBuffer())).length;
  }
  return bytes / 1024;
}

const median = (values: number[]) => percentileOf(values, 50);
/** The reference pages as the ratios read them: served with our headers (the targets' names below). */
const PLAIN = 'plain-rjsf, our headers';
const BARE = 'bare-input, our headers';
/** The restated target's ratio (ours less the page as HTML alone, over plain RJSF less the bare input) and its spread, from each one's visits in that order. */
const addedSpread = (samples: number[][]) => formatSpread(ratioSpread(samples, ([ours, floor, rjsf, bareFloor]) => (ours! - floor!) / (rjsf! - bareFloor!)));
const spread = (values: number[]) => `${Math.min(...values)}-${Math.max(...values)}`;
const latency = (samples: number[]) => samples.length
  ? `${percentileOf(samples, 50).toFixed(1)} / ${percentileOf(samples, 95).toFixed(1)} / ${Math.max(...samples).toFixed(1)}`
  : 'no text field';
const ratio = (value: number, reference: number) => (reference ? `${(value / reference).toFixed(2)}x` : '-');

async function main(): Promise<void> {
  const { url, clientDir, reference, browser, close } = await startFormBench({ build: !process.argv.includes('--no-build') });
  const floors = await writeHtmlFloors({ browser, url, pages: form.pageOrder, clientDir, staticDir: reference.staticDir });
  const floorName = (page: string) => `${page} as HTML alone, our headers`;
  const inLanguage = (page: string, language: Language) => `${page} in ${languageAutonym(language)}`;
  // typing: keystrokes are timed on the first visit of each rate (a page as HTML alone has no script to time)
  const typing = !TARGET_ONLY;
  const targets: { name: string; url: string; typing: boolean; language?: Language }[] = [
    ...form.pageOrder.map((id) => ({ name: id, url: `${url}/${id}`, typing })),
    // each page as a visitor whose browser asks for another language gets it: that language's build
    ...(TARGET_ONLY ? [] : OVERLAY_LANGUAGES.flatMap((language) => form.pageOrder.map((id) => ({ name: inLanguage(id, language), url: `${url}/${id}`, typing, language })))),
    ...form.pageOrder.map((id, index) => ({ name: floorName(id), url: reference.url(floors[index]!, { ourHeaders: true }), typing: false })),
    ...REFERENCE_PAGES.flatMap((name) => [
      { name: `${name}, our headers`, url: reference.url(name, { ourHeaders: true }), typing },
      ...(TARGET_ONLY ? [] : [{ name, url: reference.url(name), typing }]),
    ]),
  ];
  const visits = new Map(targets.map(({ name }) => [name, new Map<number, Visit[]>(THROTTLES.map((rate) => [rate, []]))]));
  // first key accepted and a warm second visit, by page (ours, as HTML alone, and plain RJSF's) and
  // CPU rate: the page as HTML alone is the floor of both for any client of it
  const early = TARGET_ONLY ? [] : [
    ...form.pageOrder.map((id) => ({ name: id, url: `${url}/${id}` })),
    ...form.pageOrder.map((id, index) => ({ name: floorName(id), url: reference.url(floors[index]!, { ourHeaders: true }) })),
    { name: PLAIN, url: reference.url('plain-rjsf', { ourHeaders: true }) },
    { name: BARE, url: reference.url('bare-input', { ourHeaders: true }) },
  ];
  const firstKeys = new Map(early.map(({ name }) => [name, new Map<number, number[]>(THROTTLES.map((rate) => [rate, []]))]));
  const warmVisits = new Map(early.map(({ name }) => [name, new Map<number, number[]>(THROTTLES.map((rate) => [rate, []]))]));
  try {
    // round-robin, so a busy moment of the machine falls on every page alike
    for (let round = 0; round < VISITS; round++) {
      for (const throttle of THROTTLES) {
        for (const { name, url: address, typing, language } of targets) {
          visits.get(name)!.get(throttle)!.push(await visit(browser, address, throttle, typing && round === 0, language));
        }
        for (const { name, url: address } of early) {
          firstKeys.get(name)!.get(throttle)!.push(Math.round(await firstKeyAccepted(browser, address, throttle)));
          warmVisits.get(name)!.get(throttle)!.push(await warmSecondVisit(browser, address, throttle));
        }
      }
    }
  } finally {
    await close();
  }

  const figures = (name: (typeof targets)[number]['name']) => {
    const byRate = visits.get(name)!;
    const first = (rate: number) => byRate.get(rate)![0]!;
    return {
      keys1x: TARGET_ONLY ? 'not typed' : latency(first(1).samples),
      keys4x: TARGET_ONLY ? 'not typed' : latency(first(4).samples),
      tti1x: median(byRate.get(1)!.map((item) => item.interactive)),
      tti4x: median(byRate.get(4)!.map((item) => item.interactive)),
      spread1x: spread(byRate.get(1)!.map((item) => item.interactive)),
      spread4x: spread(byRate.get(4)!.map((item) => item.interactive)),
      kb: first(1).scriptsKb,
      field: first(1).field ?? '-',
    };
  };
  const plain = figures(PLAIN);
  // plain RJSF as a static server sends it (not in a --target-only run)
  const staticPlain = visits.has('plain-rjsf') ? figures('plain-rjsf') : undefined;
  const header = [
    'page', 'keystroke ms 1x (p50 / p95 / max)', 'keystroke ms 4x (p50 / p95 / max)',
    'TTI ms 1x (vs plain RJSF with our headers / as a static server sends it) [fastest-slowest visit]', 'TTI ms 4x (vs the same two) [the same]',
    'first-visit JS KB gzip (vs plain RJSF)', 'typed into',
  ];
  console.log(`\n${header.join(' | ')}\n${header.map(() => '---').join(' | ')}`);
  for (const { name } of targets) {
    const row = figures(name);
    console.log([
      name, row.keys1x, row.keys4x,
      `${row.tti1x} (${ratio(row.tti1x, plain.tti1x)} / ${ratio(row.tti1x, staticPlain?.tti1x ?? 0)}) [${row.spread1x}]`,
      `${row.tti4x} (${ratio(row.tti4x, plain.tti4x)} / ${ratio(row.tti4x, staticPlain?.tti4x ?? 0)}) [${row.spread4x}]`,
      `${row.kb.toFixed(0)} (${ratio(row.kb, plain.kb)})`, row.field,
    ].join(' | '));
  }
  // the bare input with our headers: a document with one field and no script, the browser's own floor
  const bareInput = figures(BARE);
  const plainAdds = { x1: plain.tti1x - bareInput.tti1x, x4: plain.tti4x - bareInput.tti4x };
  console.log('\nEach page as HTML alone (the document our client rendered, no script, its style sheets) is the floor any client of it meets:');
  const times = (name: string, rate: number) => visits.get(name)!.get(rate)!.map((item) => item.interactive);
  // the target's ratio, with its 5th-95th percentile spread over resampled visits (ratio-spread.ts)
  const addsSpread = (page: string, rate: number) => addedSpread(
    [times(page, rate), times(floorName(page), rate), times(PLAIN, rate), times(BARE, rate)],
  );
  for (const page of form.pageOrder) {
    const [ours, floor] = [figures(page), figures(floorName(page))];
    const adds = { x1: ours.tti1x - floor.tti1x, x4: ours.tti4x - floor.tti4x };
    console.log(`  ${page}: ${floor.tti1x} ms at 1x (${ratio(floor.tti1x, plain.tti1x)} plain RJSF), ${floor.tti4x} ms at 4x (${ratio(floor.tti4x, plain.tti4x)}); `
      + `our scripts add ${adds.x1} and ${adds.x4} ms to it (${ratio(adds.x1, plainAdds.x1)} [${addsSpread(page, 1)}] and ${ratio(adds.x4, plainAdds.x4)} [${addsSpread(page, 4)}] what plain RJSF's add)`);
  }
  console.log('  (in brackets: the 5th-95th percentile of that ratio over the visits drawn again 2,000 times)');
  console.log(`  plain RJSF adds ${plainAdds.x1} and ${plainAdds.x4} ms to a bare input's page (its scripts and 150 fields)`);
  if (!TARGET_ONLY) {
    console.log('\nEach page in another language beside the same page in English, in this run:');
    for (const language of OVERLAY_LANGUAGES) {
      for (const page of form.pageOrder) {
        const [english, other] = [figures(page), figures(inLanguage(page, language))];
        console.log(`  ${inLanguage(page, language)}: first-visit JS ${other.kb.toFixed(1)} KB gzip (English ${english.kb.toFixed(1)}), `
          + `TTI ${ratio(other.tti1x, english.tti1x)} English's at 1x and ${ratio(other.tti4x, english.tti4x)} at 4x`);
      }
    }
    const earlyHeader = ['page', 'first key accepted ms 1x (vs plain RJSF\'s TTI / its first key)', 'first key accepted ms 4x (the same)', 'warm second visit TTI ms 1x (vs plain RJSF\'s)', 'warm second visit TTI ms 4x (the same)'];
    console.log(`\n${earlyHeader.join(' | ')}\n${earlyHeader.map(() => '---').join(' | ')}`);
    for (const { name } of early) {
      const key = (rate: number) => median(firstKeys.get(name)!.get(rate)!);
      const warm = (rate: number) => median(warmVisits.get(name)!.get(rate)!);
      const plainKey = (rate: number) => median(firstKeys.get(PLAIN)!.get(rate)!);
      const plainWarm = (rate: number) => median(warmVisits.get(PLAIN)!.get(rate)!);
      const tti = (rate: number) => (rate === 1 ? plain.tti1x : plain.tti4x);
      console.log([
        name,
        ...THROTTLES.map((rate) => (Number.isNaN(key(rate)) ? 'no text field' : `${key(rate)} (${ratio(key(rate), tti(rate))} / ${ratio(key(rate), plainKey(rate))})`)),
        ...THROTTLES.map((rate) => `${warm(rate)} (${ratio(warm(rate), plainWarm(rate))})`),
      ].join(' | '));
    }
    console.log(`First key accepted: from navigation until a key typed into the first text field shows in it; warm second visit: the same context's second visit (median of ${VISITS}).`);
    console.log('A page as HTML alone has no script: its first key and warm second visit are the floor of any client of that page.');
    // the first-visit target's form for both: what our scripts add to the page as HTML alone,
    // beside what plain RJSF's add to the bare input's page
    console.log('\nWhat our scripts add to the page as HTML alone, against what plain RJSF\'s add to the bare input (in brackets the 5th-95th percentile):');
    const added = (figure: Map<string, Map<number, number[]>>, page: string, rate: number) => {
      const samples = [page, floorName(page), PLAIN, BARE].map((name) => figure.get(name)!.get(rate)!);
      if (samples.some((values) => values.some(Number.isNaN))) return 'no text field';
      const medians = samples.map(median) as [number, number, number, number];
      return `${medians[0] - medians[1]} ms (${ratio(medians[0] - medians[1], medians[2] - medians[3])} [${addedSpread(samples)}] of ${medians[2] - medians[3]})`;
    };
    for (const page of form.pageOrder) {
      console.log(`  ${page}: first key ${THROTTLES.map((rate) => `${rate}x ${added(firstKeys, page, rate)}`).join(', ')}; `
        + `warm second visit ${THROTTLES.map((rate) => `${rate}x ${added(warmVisits, page, rate)}`).join(', ')}`);
    }
  }
  console.log(`\n${KEYSTROKES} keystrokes per page and CPU rate; latency = keydown event to the next animation frame. TTI: median of ${VISITS} fresh visits (in brackets the fastest and slowest), from navigation to the first field shown and the main thread idle.`);
  console.log('"our headers": the reference page served with our server\'s security headers but the CSP (Cross-Origin-Opener-Policy and Origin-Agent-Cluster give the page a renderer process of its own).');
  console.log('Targets: every page\'s TTI at or below plain RJSF\'s (ratio <= 1.00x) at 1x and 4x; first-visit JS < 200 KB gzip in every language; keystroke p95 < 16 ms (1x) and < 50 ms (4x) on education-ug.');
}

await main();
