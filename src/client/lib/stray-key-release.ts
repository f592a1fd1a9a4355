/**
 * A key released on another element than the one it was pressed on does nothing.
 * Blueprint's buttons click on the release of Enter or Space, whatever the press landed on;
 * so when a press opens a dialog (a tab switch asks first) and the dialog moves the focus to
 * its safe button before the key comes up, the release would answer the dialog at once.
 * Native buttons already ignore such a release; this makes Blueprint's do the same.
 */
const CLICKING_KEYS = new Set(['Enter', ' ']);

export function ignoreStrayKeyReleases(target: Window = window): void {
  const pressedOn = new Map<string, EventTarget | null>();
  target.addEventListener('keydown', (event) => {
    if (CLICKING_KEYS.has(event.key) && !event.repeat) pressedOn.set(event.key, event.target);
  }, true);
  target.addEventListener('keyup', (event) => {
    if (!CLICKING_KEYS.has(event.key) || !pressedOn.has(event.key)) return;
    const origin = pressedOn.get(event.key);
    pressedOn.delete(event.key);
    // stopped at the window, before React's listeners: the element under the focus never hears it
    if (origin !== event.target) event.stopPropagation();
  }, true);
}
