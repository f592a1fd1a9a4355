/**
 * Whether this page is being left: a reload, a link followed, the tab closed. The browser
 * then cuts off the page's requests, and a request cut off so is not the server's answer:
 * taken as a failure it would be acted on in the page's last moments (a conversion still
 * running taken as failed and deleted) just before the next page reads what is saved.
 */
let leaving = false;
let shownAgain: Array<() => void> = [];

if (typeof window !== 'undefined') {
  // pagehide comes before the browser aborts what the page still has in flight
  window.addEventListener('pagehide', () => {
    leaving = true;
  });
  // a page kept in the back/forward cache comes back: what it left waiting goes on
  window.addEventListener('pageshow', () => {
    leaving = false;
    const waiting = shownAgain;
    shownAgain = [];
    for (const resume of waiting) resume();
  });
}

/**
 * What a request that failed does: throws at once, unless the page is being left; then
 * it waits, throwing only if the page is shown again (back/forward cache), and otherwise
 * never settles, since the page goes away with everything that would react to it.
 */
export async function failUnlessLeaving(error: unknown): Promise<never> {
  if (leaving) await new Promise<void>((resume) => shownAgain.push(resume));
  throw error;
}
