/**
 * Two ways a blind applicant goes through a page, heard through Orca (screen-reader.ts):
 * Say All (Orca reads the page from the top to the end, as it does on a page's load by
 * default) and the Tab key (each control, one by one). Each says what Orca said, and what
 * went wrong: a Say All that loops or stops before the end, a Tab stop Orca cannot name.
 */
import type { Page } from 'playwright-core';
import type { LogEntry, ScreenReader } from './screen-reader.ts';

/** A Say All item of Orca's log: the object and the range read, then the words. */
const ITEM = /^(\[.*?\] \(\d+-\d+\)) (.*)$/;
/** Orca's object: `[role | name]`. */
const OBJECT = /^\[(.*?) \| (.*)\]$/;

export interface SayAllReading {
  /** every utterance, in order */
  speech: string[];
  /** what Orca said of each object it came to, one line an object (`Legal First Name, entry, required`) */
  lines: string[];
  /** Orca reached the end of the page */
  ended: boolean;
  /** the passage Orca read again and again, when it looped */
  loop?: string[];
}

export interface TabStop {
  /** Orca's object: `[role | name]` */
  object: string;
  role: string;
  name: string;
  speech: string[];
}

export interface TabReading {
  stops: TabStop[];
  /** stops Orca has no name for */
  unnamed: TabStop[];
  /** the stop the focus came back to before leaving the page, when it was caught in a loop */
  loop?: TabStop;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The shortest passage the reading ended with `times` times over, if any: a Say All that
 * reads the same objects at the same places again and again is caught, however long the
 * passage (up to `longest` items).
 */
export function repeatedTail<T>(items: T[], times = 4, longest = 80): T[] | undefined {
  for (let period = 1; period <= longest && period * times <= items.length; period++) {
    const tail = items.slice(-period * times);
    if (tail.every((item, index) => item === tail[index % period])) return tail.slice(0, period);
  }
  return undefined;
}

/** Gives the browser's window the keyboard: a click where the page has no control. */
async function takeKeyboard(reader: ScreenReader, page: Page): Promise<void> {
  await page.bringToFront();
  const point = await page.evaluate(() => ({
    x: window.screenX + (window.outerWidth - window.innerWidth) + 2,
    y: window.screenY + (window.outerHeight - window.innerHeight) + 2,
  }));
  const mark = reader.mark();
  reader.click(point.x, point.y);
  await reader.quiet(mark, 600);
}

/** Orca's reading position at the top of the page (Control+Home, as a person does). */
async function fromTheTop(reader: ScreenReader, page: Page): Promise<void> {
  await takeKeyboard(reader, page);
  const mark = reader.mark();
  reader.key('ctrl+Home');
  await reader.quiet(mark, 600);
}

/** The next Tab from the start of the page: the click's point would otherwise be where Tab goes on from. */
export async function tabFromTheStart(reader: ScreenReader, page: Page): Promise<void> {
  await takeKeyboard(reader, page);
  await page.evaluate(() => {
    const start = document.createElement('span');
    start.tabIndex = -1;
    document.body.prepend(start);
    start.focus();
    start.remove();
  });
  await reader.quiet(reader.mark(), 400);
}

/**
 * Orca's Say All from the top of the page. It ends when Orca says it reached the end, or is
 * caught looping, or after `ceilingMs` (a bound on the wait, far above a whole page's reading).
 */
export async function sayAll(reader: ScreenReader, page: Page, ceilingMs = 240_000): Promise<SayAllReading> {
  await fromTheTop(reader, page);
  const mark = reader.mark();
  reader.key('KP_Add');
  const deadline = Date.now() + ceilingMs;
  let entries: LogEntry[] = [];
  for (;;) {
    await wait(500);
    entries = reader.entries(mark);
    const speech = entries.filter((entry) => entry.kind === 'speech').map((entry) => entry.text);
    const items = entries.filter((entry) => entry.kind === 'say-all-item').map((entry) => entry.text);
    if (entries.some((entry) => entry.kind === 'say-all-end')) return { speech, lines: linesOf(items), ended: true };
    const loop = repeatedTail(items);
    if (loop || Date.now() > deadline) {
      await page.goto('about:blank'); // stops the reading
      return { speech, lines: linesOf(items), ended: false, loop: loop && linesOf(loop) };
    }
  }
}

/** Say All's utterances joined per object and place: Orca says an object's name, role and state one after another. */
function linesOf(items: string[]): string[] {
  const lines: { at: string; words: string[] }[] = [];
  for (const item of items) {
    const [, at = '', words = item] = ITEM.exec(item) ?? [];
    const last = lines.at(-1);
    if (last && last.at === at) last.words.push(words.trim());
    else lines.push({ at, words: [words.trim()] });
  }
  return lines.map((line) => line.words.filter(Boolean).join(', ')).filter(Boolean);
}

/** Presses Tab from the top of the page until the focus leaves it, noting what Orca says at each stop. */
export async function tabWalk(reader: ScreenReader, page: Page, maxStops = 400): Promise<TabReading> {
  await tabFromTheStart(reader, page);
  const stops: TabStop[] = [];
  const seen = new Map<string, number>();
  for (let index = 0; index < maxStops; index++) {
    const mark = reader.mark();
    reader.key('Tab');
    const entries = await reader.quiet(mark, 400);
    const inPage = await page.evaluate(() => document.hasFocus() && document.activeElement !== document.body);
    if (!inPage) break;
    // the element, told apart from another with the same name by its place in the page
    const place = await page.evaluate(() => {
      const path: number[] = [];
      for (let node: Element | null = document.activeElement; node?.parentElement; node = node.parentElement) path.unshift([...node.parentElement.children].indexOf(node));
      return path.join('.');
    });
    const focus = entries.filter((entry) => entry.kind === 'focus').at(-1)?.text ?? '[none | ]';
    const [, role = '', name = ''] = OBJECT.exec(focus) ?? [];
    const stop = { object: focus, role, name: name.trim(), speech: entries.filter((entry) => entry.kind === 'speech').map((entry) => entry.text) };
    // a date input is one element with three stops (month, day, year): Orca's object tells them apart
    const at = `${place} ${focus}`;
    if (seen.has(at)) {
      // back at the first stop: the page was gone through; anywhere else, the focus is caught
      return { stops, unnamed: stops.filter((item) => !item.name), loop: seen.get(at) === 0 ? undefined : stop };
    }
    seen.set(at, stops.length);
    stops.push(stop);
  }
  return { stops, unnamed: stops.filter((item) => !item.name) };
}


/** Presses Tab until Orca is on an object named `name` (from wherever the focus is); what it said there. */
export async function tabTo(reader: ScreenReader, name: string, maxStops = 150): Promise<TabStop> {
  for (let index = 0; index < maxStops; index++) {
    const mark = reader.mark();
    reader.key('Tab');
    const entries = await reader.quiet(mark, 400);
    const focus = entries.filter((entry) => entry.kind === 'focus').at(-1)?.text ?? '';
    const [, role = '', named = ''] = OBJECT.exec(focus) ?? [];
    if (named.trim() === name) return { object: focus, role, name: named.trim(), speech: entries.filter((entry) => entry.kind === 'speech').map((entry) => entry.text) };
  }
  throw new Error(`Tab did not reach "${name}" in ${maxStops} stops`);
}
