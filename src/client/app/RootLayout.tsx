import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { InactivityGuard } from '../features/inactivity/InactivityGuard.tsx';
import { setRouteTitle } from '../lib/document-title.ts';
import { focusHeading } from '../lib/focus-heading.ts';
import { useToast } from '../lib/toasts.tsx';
import { takeMessageKept } from '../session/message-across-reload.ts';
import { readNavigationState } from '../session/navigation-state.ts';
import { documentTitle } from './route-titles.ts';
import { useLocation } from '../lib/routing.tsx';

/** How long a new page may take to show its heading (a lazy page, a profile load). */
const FOCUS_WAIT_FRAMES = 120;

/**
 * Whether the visitor has pressed a key or pointed yet. Redirects before that (an unknown
 * path to /about, back to the last page) are part of loading the first page, which starts
 * as any web page does: the skip link is the first stop.
 */
let interacted = false;
if (typeof window !== 'undefined') {
  const mark = () => (interacted = true);
  window.addEventListener('keydown', mark, { capture: true, passive: true });
  window.addEventListener('pointerdown', mark, { capture: true, passive: true });
}

/**
 * Moves focus to what a new page starts with: an element named in navigation state (the
 * missing-information panel after a refused submit), else the page's main heading. It waits
 * for the element to render, and gives up if focus has meanwhile gone somewhere on purpose.
 */
function focusWhenReady(targetId: string | undefined): () => void {
  const before = document.activeElement;
  let frames = 0;
  let handle = 0;
  const step = () => {
    const active = document.activeElement;
    const movedOnPurpose = active && active !== before && active !== document.body && active.isConnected;
    if (movedOnPurpose) return;
    // the page that is leaving stays in the document, hidden, until the new one's module has loaded
    const target = (targetId ? document.getElementById(targetId) : null)
      ?? [...document.querySelectorAll<HTMLElement>('main h1')].find((heading) => heading.checkVisibility());
    if (target && (!targetId || target.id === targetId || frames >= 30)) {
      focusHeading(target);
      if (document.activeElement === target) return;
    }
    if (++frames < FOCUS_WAIT_FRAMES) handle = requestAnimationFrame(step);
  };
  handle = requestAnimationFrame(step);
  return () => cancelAnimationFrame(handle);
}

/** Wraps every route: messages passed between pages, title and focus, inactivity. */
export function RootLayout({ children }: { children: ReactNode }) {
  const location = useLocation();
  const toast = useToast();
  const shownFor = useRef<string | null>(null);
  const lastPath = useRef<string | null>(null);

  // a message handed over in navigation state, or kept across a page load, is shown once, as a dismissible toast
  useEffect(() => {
    if (shownFor.current === location.key) return;
    shownFor.current = location.key;
    const { successMessage = takeMessageKept(), errorMessage } = readNavigationState(location.state);
    if (successMessage) toast({ severity: 'success', message: successMessage, key: 'navigation-success' });
    if (errorMessage) toast({ severity: 'error', message: errorMessage, key: 'navigation-error' });
  }, [location, toast]);

  // on every navigation: a new title with the new page's heading (WCAG 2.4.2); a screen or an
  // account page shown in the route's place names itself over it (useScreenTitle)
  useLayoutEffect(() => setRouteTitle(documentTitle(location.pathname)), [location.pathname]);

  // and focus where the new page starts (WCAG 2.4.3)
  useEffect(() => {
    const pathChanged = lastPath.current !== location.pathname;
    lastPath.current = location.pathname;
    if (!interacted) return;
    // /{page}#{fieldKey} (the error summary): the field takes the focus (use-field-anchor)
    if (location.hash) return;
    if (pathChanged) window.scrollTo(0, 0);
    return focusWhenReady(readNavigationState(location.state).focusTarget);
  }, [location.key, location.pathname, location.hash, location.state]); // once per navigation: pathname, hash and state change only with the key

  return (
    <>
      {children}
      <InactivityGuard />
    </>
  );
}
