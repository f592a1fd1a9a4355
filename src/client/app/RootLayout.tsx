import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import errors from '../../../schemas/text/errors.json';
import { InactivityGuard } from '../features/inactivity/InactivityGuard.tsx';
import { setUnauthorizedHandler } from '../lib/api-client.ts';
import { useToast } from '../lib/toasts.tsx';
import { clearClientData } from '../session/end-session.ts';
import { readNavigationState } from '../session/navigation-state.ts';
import { documentTitle } from './route-titles.ts';

/** Wraps every route: 401 handling, messages passed between pages, title and focus, inactivity. */
export function RootLayout() {
  const location = useLocation();
  const navigate = useNavigate();
  const toast = useToast();
  const shownFor = useRef<string | null>(null);

  useEffect(() => {
    setUnauthorizedHandler(() => {
      void clearClientData();
      navigate('/login', { replace: true, state: { errorMessage: errors.session_invalid } });
    });
  }, [navigate]);

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
