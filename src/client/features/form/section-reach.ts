/**
 * A page the server drew is taken over by React section by section as the applicant comes to
 * each one, not all at once: a section costs its take-over only when it is needed. Until then
 * it is the server's drawing, which shows the same answers and takes keys
 * (typed-before-start.ts keeps what it is given). A section is reached when the pointer comes
 * over it, when anything in it is focused, pressed, typed into or filled, and when something
 * it shows changes (PageForm.tsx); React takes it over at once for a click or a choice in it
 * (its selective hydration), so no event is lost on the way. Being on the screen does not
 * reach a section: an applicant who reads the page, or answers one section of it, pays for
 * no other section's take-over, and the page is quiet as soon as its frame is React's. The
 * pointer's coming over a section gives the take-over a head start on a click there.
 *
 * Typing into one of its text fields is the exception: the browser types it, and React does
 * not hear it until the section is taken over, when typed-before-start.ts hands it to the
 * answers. React would otherwise take the section over within the key's own task, and the
 * letter would show only after that (a quarter of a second on a slow phone).
 */

interface Held {
  reached: Promise<void>;
  reach: () => void;
}

/** The events that say the applicant is in a section: the pointer over it, a click, a key, a focus, a field filled without either (autofill). */
const REACHING_EVENTS = ['pointerover', 'focusin', 'pointerdown', 'keydown', 'click', 'input', 'change'] as const;
/** What the browser does on its own in a text field: keys, editing, the pointer placing the caret. */
const TYPING_EVENTS = ['keydown', 'keypress', 'keyup', 'beforeinput', 'input', 'textInput', 'compositionstart',
  'compositionupdate', 'compositionend', 'paste', 'cut', 'pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click'] as const;
const REACHING = new Set<string>(REACHING_EVENTS);
const TYPING = new Set<string>(TYPING_EVENTS);
const WATCHED_EVENTS = [...new Set<string>([...REACHING_EVENTS, ...TYPING_EVENTS])];
const TEXT_TYPES = new Set(['text', 'email', 'tel', 'url', 'search', 'number']);
const held = new Map<string, Held>();
/** The drawn sections React has not taken over yet (reached or not), by key. */
const drawn = new Map<string, HTMLElement>();
let whenAllReached: (() => void)[] = [];

const sectionKey = (pageId: string, sectionId: string) => `${pageId}/${sectionId}`;

function keyOf(element: Element): string | null {
  const section = element.closest<HTMLElement>('[data-section]');
  const page = section?.closest<HTMLElement>('[data-page]');
  return section && page ? sectionKey(page.dataset.page!, section.dataset.section!) : null;
}

/** A plain text field the browser edits by itself; a combobox answers each key, so it is not one. */
function isPlainTextField(element: Element): boolean {
  const editable = element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && TEXT_TYPES.has(element.type));
  return editable && !element.readOnly && !element.hasAttribute('role') && !element.hasAttribute('aria-autocomplete');
}

/** A key that types or deletes, an edit, the pointer in the field (shortcuts, Enter, Tab and Escape still reach the page's handlers). */
function isEditing(event: Event): boolean {
  if (!TYPING.has(event.type)) return false;
  if (!(event instanceof KeyboardEvent)) return true;
  if (event.ctrlKey || event.metaKey) return false;
  return event.key.length === 1 || event.key === 'Backspace' || event.key === 'Delete';
}

// on every key and pointer event while a drawn section is not taken over: one look up the tree
function onWatchedEvent(event: Event): void {
  const target = event.target;
  if (!(target instanceof Element)) return;
  const key = keyOf(target);
  if (!key) return;
  if (REACHING.has(event.type)) reachKey(key);
  // typing into a text field of a section React has not taken over: the browser's alone (see above)
  if (drawn.get(key)?.contains(target) && isPlainTextField(target) && isEditing(event)) event.stopPropagation();
}

function reachKey(key: string): void {
  const entry = held.get(key);
  if (!entry) return;
  held.delete(key);
  entry.reach();
  if (held.size) return;
  if (!drawn.size) stopListening();
  const waiting = whenAllReached;
  whenAllReached = [];
  waiting.forEach((run) => run());
}

function stopListening(): void {
  for (const type of WATCHED_EVENTS) document.removeEventListener(type, onWatchedEvent, true);
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
  for (const element of sections) {
    let reach!: () => void;
    const reached = new Promise<void>((resolve) => (reach = resolve));
    const key = sectionKey(page!.dataset.page!, element.dataset.section!);
    held.set(key, { reached, reach });
    drawn.set(key, element);
  }
  for (const type of WATCHED_EVENTS) document.addEventListener(type, onWatchedEvent, true);
  // a field focused before the scripts came: the applicant is already in its section
  if (document.activeElement) {
    const key = keyOf(document.activeElement);
    if (key) reachKey(key);
  }
}

/** What a section of the drawn page waits for before React takes it over; null once reached (and for any section React draws itself). */
export function sectionHeld(pageId: string, sectionId: string): Promise<void> | null {
  return held.get(sectionKey(pageId, sectionId))?.reached ?? null;
}

/** The section is reached: something it shows is about to change. */
export function reachSection(pageId: string, sectionId: string): void {
  reachKey(sectionKey(pageId, sectionId));
}

/** React has taken the section over: its fields' events are React's from now on. */
export function sectionTakenOver(pageId: string, sectionId: string): void {
  drawn.delete(sectionKey(pageId, sectionId));
  if (!drawn.size && !held.size) stopListening();
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

/** Every section still held is reached, and none is watched any more (the drawn page is left, or has to be whole). */
export function releaseDrawnSections(): void {
  drawn.clear();
  for (const key of [...held.keys()]) reachKey(key);
  stopListening();
}
