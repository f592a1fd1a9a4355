/**
 * Moves the focus to a heading (a new page's h1, the missing-information panel's title)
 * without leaving the heading focusable. A focusable heading inside anything with a click
 * listener (React listens on its root for every click) is exposed by Chromium with a
 * "click ancestor" action, and Orca calls it "clickable" wherever it reads it. So the
 * heading is made focusable only for the moment it holds the focus.
 */
export function focusHeading(heading: HTMLElement, options: FocusOptions = { preventScroll: true }): void {
  if (!heading.hasAttribute('tabindex')) {
    heading.setAttribute('tabindex', '-1');
    heading.addEventListener('blur', () => heading.removeAttribute('tabindex'), { once: true });
  }
  heading.focus(options);
}
