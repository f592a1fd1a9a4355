import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { InactivityGuard } from '../features/inactivity/InactivityGuard.tsx';
import { useToast } from '../lib/toasts.tsx';
import { readNavigationState } from '../session/navigation-state.ts';
import { documentTitle } from './route-titles.ts';

/** Wraps every route: messages passed between pages, title and focus, inactivity. */
export function RootLayout() {
  const location = useLocation();
  const toast = useToast();
  const shownFor = useRef<string | null>(null);

  // a message handed over in navigation state is shown once, as a dismissible toast
  useEffect(() => {
    if (shownFor.current === location.key) return;
    shownFor.current = location.key;
    const { successMessage, errorMessage } = readNavigationState(location.state);
    if (successMessage) toast({ severity: 'success', message: successMessage, key: 'navigation-success' });
    if (errorMessage) toast({ severity: 'error', message: errorMessage, key: 'navigation-error' });
  }, [location, toast]);

  // on every route change: a new title, and focus on the page's main heading
  useEffect(() => {
    document.title = documentTitle(location.pathname);
    const frame = requestAnimationFrame(() => {
      const heading = document.querySelector<HTMLElement>('main h1');
      if (heading && document.activeElement === document.body) heading.focus({ preventScroll: true });
    });
    window.scrollTo(0, 0);
    return () => cancelAnimationFrame(frame);
  }, [location.pathname]);

  return (
    <>
      <Outlet />
      <InactivityGuard />
    </>
  );
}
