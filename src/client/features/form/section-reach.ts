/**
 * A page the server drew is taken over by React section by section as the applicant reaches
 * each one, not all at once: a section far down the about page costs its take-over only when
 * it is needed. Until then it is the server's drawing, which shows the same answers and takes
 * keys (typed-before-start.ts keeps what it is given). A section is reached when it nears the
 * screen, when anything in it is focused, pressed, typed into or filled, and when something
 * it shows changes (PageForm.tsx); React takes it over at once for a key or a click in it
 * (its selective hydration), so no event is lost on the way.
 */

interface Held {
  element: HTMLElement;
  reached: Promise<void>;
  reach: () => void;
}

/** The events that say the applicant is in a section: a click, a key, a focus, a field filled without either (autofill). */
const REACHING_EVENTS = ['focusin', 'pointerdown', 'keydown', 'click', 'input', 'change'] as const;
/** How far ahead of the screen a section is taken over, so that a scroll finds it ready. */
const AHEAD = '50% 0px';

const held = new Map<string, Held>();
let observer: IntersectionObserver | null = null;
let whenAllReached: (() => void)[] = [];

const sectionKey = (pageId: string, sectionId: string) => `${pageId}/${sectionId}`;

function keyOf(element: Element): string | null {
  const section = element.closest<HTMLElement>('[data-section]');
  const page = section?.closest<HTMLElement>('[data-page]');
  return section && page ? sectionKey(page.dataset.page!, section.dataset.section!) : null;
}

function reachElement(element: Element): void {
  const key = keyOf(element);
  if (key) reachKey(key);
}

function onReachingEvent(event: Event): void {
  if (event.target instanceof Element) reachElement(event.target);
}

function reachKey(key: string): void {
  const entry = held.get(key);
  if (!entry) return;
  held.delete(key);
  observer?.unobserve(entry.element);
  entry.reach();
  if (held.size) return;
  stopWatching();
  const waiting = whenAllReached;
  whenAllReached = [];
  waiting.forEach((run) => run());
}

function stopWatching(): void {
  observer?.disconnect();
  observer = null;
  for (const type of REACHING_EVENTS) document.removeEventListener(type, onReachingEvent, true);
}

/**
 * Holds the sections of the page the server drew in `root` until each is reached. Called
 * before React takes the page over; the listeners are the document's, in the capture phase,
 * so a section is reached before React (listening on the root) handles the same event.
 */
export function holdDrawnSections(root: HTMLElement): void {
  const page = root.querySelector<HTMLElement>('[data-page]');
  const sections = page ? [...page.querySelectorAll<HTMLElement>('[data-section]')] : [];
  if (!sections.length) return;
  observer = typeof IntersectionObserver === 'function'
    ? new IntersectionObserver((entries) => {
      for (const entry of entries) if (entry.isIntersecting) reachElement(entry.target);
    }, { rootMargin: AHEAD })
    : null;
  for (const element of sections) {
    let reach!: () => void;
    const reached = new Promise<void>((resolve) => (reach = resolve));
    held.set(sectionKey(page!.dataset.page!, element.dataset.section!), { element, reached, reach });
    observer?.observe(element);
  }
  // without an observer (a very old browser) every section is reached at once, as the page would be without any of this
  if (!observer) return releaseDrawnSections();
  for (const type of REACHING_EVENTS) document.addEventListener(type, onReachingEvent, true);
}

/** What a section of the drawn page waits for before React takes it over; null once reached (and for any section React draws itself). */
export function sectionHeld(pageId: string, sectionId: string): Promise<void> | null {
  return held.get(sectionKey(pageId, sectionId))?.reached ?? null;
}

/** The section is reached: something it shows is about to change. */
export function reachSection(pageId: string, sectionId: string): void {
  reachKey(sectionKey(pageId, sectionId));
}

/**
 * Runs `run` once no section is held (at once when none is). A render that changes a context
 * (the take-over's SWR fallback dropped) reaches every boundary below it, and a held one would
 * hold that whole render back until it is reached: such a render waits for this instead.
 */
export function afterSectionsReached(run: () => void): void {
  if (held.size) whenAllReached.push(run);
  else run();
}

/** Every section still held is reached (the drawn page is left, or has to be whole). */
export function releaseDrawnSections(): void {
  for (const key of [...held.keys()]) reachKey(key);
}
