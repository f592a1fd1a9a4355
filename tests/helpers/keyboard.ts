import type { Locator, Page } from 'playwright-core';

/**
 * Driving the application with the keyboard only: Tab and Shift+Tab to move, Space, Enter
 * and the arrow keys to operate, typing to answer. The page is read (never clicked or
 * filled) to know where the focus is and whether it can be seen.
 */
export interface FocusStop {
  /** the focused element's id, or '' */
  id: string;
  tag: string;
  type: string;
  role: string;
  /** its label or text, trimmed: what a person would call it */
  name: string;
  /** position in the document (CSS px), of what is seen (a radio's circle, a file chooser's box) */
  top: number;
  left: number;
  width: number;
  height: number;
  /** a 2 px (or wider) outline is drawn around it, or around what stands for it */
  ringVisible: boolean;
  /** whether it is inside the dark header or footer (a white ring there) */
  region: 'header' | 'nav' | 'main' | 'footer' | 'dialog' | 'popover' | 'toast' | 'other';
  /** nothing else is painted over its middle (WCAG 2.4.11) */
  obscured: boolean;
}

/** Where the focus is now, as a person would see it. */
export function focusStop(page: Page): Promise<FocusStop | null> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body || element === document.documentElement) return null;
    // Blueprint hides the real radio, checkbox and file inputs under what is drawn for them
    const shown = (element.matches('.bp6-control input') ? element.parentElement?.querySelector<HTMLElement>('.bp6-control-indicator') : null)
      ?? (element.matches('.bp6-file-input input') ? element.nextElementSibling as HTMLElement | null : null)
      ?? element;
    const style = getComputedStyle(shown);
    const ringVisible = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    const rect = shown.getBoundingClientRect();
    const x = Math.min(Math.max(rect.left + rect.width / 2, 0), window.innerWidth - 1);
    const y = Math.min(Math.max(rect.top + rect.height / 2, 0), window.innerHeight - 1);
    const hit = document.elementFromPoint(x, y);
    const owner = element.closest('label, .bp6-control, .bp6-file-input, .lookup-combobox, .bp6-input-group, .bp6-html-select') ?? element;
    const obscured = !hit || !(owner.contains(hit) || hit.contains(element) || element.contains(hit));
    const labels = (element as HTMLInputElement).labels;
    const name = (element.getAttribute('aria-label')
      ?? (labels && labels.length ? labels[0]!.textContent : null)
      ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();
    const region = element.closest('.bp6-toast') ? 'toast'
      : element.closest('.bp6-popover') ? 'popover' // before dialogs: the account popover is a small dialog
        : element.closest('[role="dialog"], [role="alertdialog"]') ? 'dialog'
          : element.closest('header') ? 'header'
            : element.closest('.step-nav') ? 'nav'
              : element.closest('main') ? 'main'
                : element.closest('footer') ? 'footer' : 'other';
    return {
      id: element.id, tag: element.tagName.toLowerCase(), type: (element as HTMLInputElement).type ?? '',
      role: element.getAttribute('role') ?? '', name,
      top: rect.top + window.scrollY, left: rect.left + window.scrollX, width: rect.width, height: rect.height,
      ringVisible, region, obscured,
    };
  });
}

export interface TabOptions {
  /** the most Tab presses before giving up */
  max?: number;
  /** Shift+Tab instead of Tab */
  backwards?: boolean;
  /** every stop passed on the way is added here */
  path?: FocusStop[];
}

/**
 * Presses Tab until the focus is on what `wanted` accepts. Every stop on the way must show
 * a visible ring (WCAG 2.4.7); the stops are kept in `path` for order checks.
 */
export async function tabTo(page: Page, wanted: (stop: FocusStop) => boolean, options: TabOptions = {}): Promise<FocusStop> {
  const { max = 120, backwards = false, path } = options;
  const seen: string[] = [];
  for (let press = 0; press < max; press++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    const stop = await focusStop(page);
    if (!stop) {
      seen.push('(body)');
      continue;
    }
    seen.push(stop.id || stop.name.slice(0, 30));
    path?.push(stop);
    if (!stop.ringVisible) throw new Error(`no visible focus ring on ${stop.tag}#${stop.id} "${stop.name}"`);
    if (wanted(stop)) return stop;
  }
  throw new Error(`not reached by ${max} presses of ${backwards ? 'Shift+Tab' : 'Tab'}; passed: ${seen.join(', ')}`);
}

export const byId = (id: string) => (stop: FocusStop) => stop.id === id;
export const byName = (name: string | RegExp) => (stop: FocusStop) =>
  typeof name === 'string' ? stop.name === name : name.test(stop.name);

/** Tabs to the field `id` and types `text` into it. */
export async function typeInto(page: Page, id: string, text: string, options?: TabOptions): Promise<void> {
  await tabTo(page, byId(id), options);
  await page.keyboard.type(text);
}

/**
 * The focus is on a radio button: Space checks it if none of the group is checked, then the
 * arrow keys move the choice to the option labelled `label` (arrows check as they move).
 */
export async function chooseRadio(page: Page, label: string): Promise<void> {
  const group = () => page.evaluate(() => {
    const element = document.activeElement as HTMLInputElement;
    const radios = [...document.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${element.name}"]`)];
    return { labels: radios.map((radio) => radio.closest('label')?.textContent?.trim() ?? ''), checked: radios.findIndex((radio) => radio.checked) };
  });
  let state = await group();
  if (!state.labels.includes(label)) throw new Error(`no radio "${label}" in ${state.labels.join(', ')}`);
  if (state.checked < 0) {
    await page.keyboard.press('Space');
    state = await group();
  }
  for (let step = 0; step < state.labels.length && state.labels[state.checked] !== label; step++) {
    await page.keyboard.press('ArrowDown');
    state = await group();
  }
  if (state.labels[state.checked] !== label) throw new Error(`could not choose "${label}"`);
}

/** The focus is on a list (select): the arrow keys move its choice to the option with `value`. */
export async function chooseOption(page: Page, value: string): Promise<void> {
  const read = () => page.evaluate(() => {
    const select = document.activeElement as HTMLSelectElement;
    if (select.tagName !== 'SELECT') throw new Error(`the focus is on ${select.tagName}, not a list`);
    return { values: [...select.options].map((option) => option.value), index: select.selectedIndex };
  });
  let state = await read();
  const target = state.values.indexOf(value);
  if (target < 0) throw new Error(`no option ${value}`);
  while (state.index !== target) {
    await page.keyboard.press(state.index < target ? 'ArrowDown' : 'ArrowUp');
    const next = await read();
    if (next.index === state.index) throw new Error(`the arrow keys do not move the list from option ${state.index}`);
    state = next;
  }
}

/** Which element has the focus: its id, or its tag and text. */
export async function activeDescription(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    return element.id ? `#${element.id}` : `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
  });
}

/**
 * The stops of `path` inside one region go down the page (or along a row): the focus
 * order follows the reading order (WCAG 2.4.3).
 */
export function orderProblems(path: FocusStop[], region: FocusStop['region'] = 'main'): string[] {
  const stops = path.filter((stop) => stop.region === region);
  const problems: string[] = [];
  for (let index = 1; index < stops.length; index++) {
    const before = stops[index - 1]!;
    const after = stops[index]!;
    const sameRow = Math.abs(after.top - before.top) < Math.max(8, before.height / 2);
    const goesDown = after.top > before.top - 8;
    if (!goesDown && !(sameRow && after.left > before.left)) {
      problems.push(`${before.id || before.name} (${Math.round(before.left)},${Math.round(before.top)}) -> ${after.id || after.name} (${Math.round(after.left)},${Math.round(after.top)})`);
    }
  }
  return problems;
}

/** A login with a wrong password, typed and sent from the keyboard on /login; resolves with its error toast once shown. */
export async function failLoginByKeyboard(page: Page): Promise<Locator> {
  await tabTo(page, byId('field-username'));
  await page.keyboard.type('nobody@example.org');
  await tabTo(page, byId('field-password'));
  await page.keyboard.type('Whatever-1234!');
  await page.keyboard.press('Enter');
  const toast = page.locator('.app-toaster .bp6-toast');
  await toast.waitFor();
  return toast;
}

/**
 * Waits until a dialog or popover is shown with the focus inside it. The overlay moves the
 * focus in a frame or two after it shows: a key pressed before then acts on the page behind.
 */
export async function focusInside(overlay: Locator): Promise<void> {
  // the overlay itself may take the focus (a dialog with nothing to focus first), or an element in it
  await overlay.and(overlay.page().locator(':focus-within')).waitFor();
}
