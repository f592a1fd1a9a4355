/**
 * A page read through by Orca both ways (screen-reader-reading.ts), and what a blind
 * applicant would stumble on: a Say All that loops or stops before the end of the page, a
 * Tab stop Orca has no name for, a focus caught in a loop. Used by `npm run
 * check:screen-reader` on every page and by the end-to-end test on About You.
 */
import type { Browser, Page } from 'playwright-core';
import type { ScreenReader } from './screen-reader.ts';
import { sayAll, tabWalk, type SayAllReading, type TabReading } from './screen-reader-reading.ts';

export interface PageReading {
  url: string;
  sayAll: SayAllReading;
  tab: TabReading;
  /** the last words of the page, which Say All must reach */
  lastWords: string;
  /** what went wrong, in words; empty when the page reads through */
  problems: string[];
}

/** Opens a page as a visitor does and waits until it has settled (drawn, its scripts in, nothing loading). */
async function opened(browser: Browser, url: string, prepare?: (page: Page) => Promise<void>): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  if (prepare) await prepare(page);
  await page.goto(url);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
  return page;
}

/** The page's last words a screen reader reads (the text of its last element with any), to know Say All reached the end. */
function lastWordsOf(page: Page): Promise<string> {
  return page.evaluate(() => document.body.innerText.split('\n').map((line) => line.trim()).filter(Boolean).at(-1) ?? '');
}

export function problemsOf(reading: Omit<PageReading, 'problems'>): string[] {
  const problems: string[] = [];
  const { sayAll: said, tab, lastWords } = reading;
  if (said.loop) problems.push(`Say All read this again and again and never reached the end:\n    ${said.loop.join('\n    ')}`);
  else if (!said.ended) problems.push(`Say All did not end (last words: ${said.lines.slice(-3).join(' / ')})`);
  else if (!said.speech.some((line) => line.includes(lastWords))) problems.push(`Say All ended before the page's last words, "${lastWords}" (it ended with: ${said.lines.slice(-3).join(' / ')})`);
  for (const stop of tab.unnamed) problems.push(`a Tab stop Orca has no name for: ${stop.object}, heard as "${stop.speech.join(' ')}"`);
  if (tab.loop) problems.push(`Tab came back to ${tab.loop.object} before leaving the page`);
  return problems;
}

/** Reads the page at `url` by Say All, then again from the top by Tab. */
export async function readPage(reader: ScreenReader, browser: Browser, url: string, prepare?: (page: Page) => Promise<void>): Promise<PageReading> {
  let page = await opened(browser, url, prepare);
  const lastWords = await lastWordsOf(page);
  const said = await sayAll(reader, page);
  await page.context().close();
  page = await opened(browser, url, prepare);
  const tab = await tabWalk(reader, page);
  await page.context().close();
  const reading = { url, sayAll: said, tab, lastWords };
  return { ...reading, problems: problemsOf(reading) };
}

/** A reading written out for a person: Say All a line an object, then each Tab stop. */
export function readingText(reading: PageReading): string {
  return [
    `Say All (${reading.sayAll.ended ? 'to the end' : 'did not end'}):`,
    ...reading.sayAll.lines.map((line) => `  ${line}`),
    '',
    `Tab (${reading.tab.stops.length} stops):`,
    ...reading.tab.stops.map((stop) => `  ${stop.speech.join(' ')}`),
    '',
  ].join('\n');
}
