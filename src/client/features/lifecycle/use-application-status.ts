import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from '../../lib/routing.tsx';
import partner from '../../../../schemas/partner.json';
import frame from '../../../../schemas/text/frame.json';
import { messageOf } from '../../lib/api-errors.ts';
import { useToast } from '../../lib/toasts.tsx';
import { useClientSnapshot } from '../../session/client-snapshot.ts';
import { postStatus, saveLastPage } from './status-actions.ts';
import { useApplicationSession } from '../../session/session-hooks.ts';

const STEP_PATHS = new Set(frame.steps.map((step) => step.path));

/**
 * The status rules of spec sections 2 and 4, for the application pages: a new applicant
 * is started; the last page is kept while started or validating, and a returning
 * applicant is taken back to it once; a submitted application lives at /completion.
 */
export function useApplicationStatus(): void {
  const snapshot = useClientSnapshot();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const toast = useToast();
  const starting = useRef(false);
  const { errors, navigation } = useApplicationSession();

  const status = snapshot.web_status;
  const loggedIn = snapshot.is_logged_in && !snapshot.is_service_user;

  useEffect(() => {
    errors.setActive(loggedIn && status === 'validating');
  }, [errors, loggedIn, status]);

  useEffect(() => {
    if (!loggedIn || status !== null || starting.current) return;
    starting.current = true;
    postStatus('started').catch((error) => toast({ severity: 'error', message: messageOf(error), key: 'status' }))
      .finally(() => (starting.current = false));
  }, [loggedIn, status, toast]);

  useEffect(() => {
    if (!loggedIn) return;
    if (status === 'submitted' && pathname !== '/completion') navigate('/completion', { replace: true });
    else if (status !== 'submitted' && pathname === '/completion') navigate(partner.default_route, { replace: true });
  }, [loggedIn, status, pathname, navigate]);

  useEffect(() => {
    // once per session: a new login makes a new session, whose first load decides again
    if (!loggedIn || navigation.get().lastPageDecided) return;
    const last = snapshot.last_page;
    const returning = Boolean(last && last !== pathname && STEP_PATHS.has(last) && !snapshot.has_changed_page && status !== 'submitted');
    navigation.set({ ...navigation.get(), lastPageDecided: true, lastPageTarget: returning ? last : null });
    if (returning) navigate({ pathname: last!, search: window.location.search }, { replace: true });
  }, [loggedIn, pathname, snapshot.last_page, snapshot.has_changed_page, status, navigate, navigation]);

  useEffect(() => {
    if (!loggedIn || !STEP_PATHS.has(pathname) || (status !== 'started' && status !== 'validating')) return;
    const target = navigation.get().lastPageTarget;
    if (target) {
      if (target !== pathname) return; // on the way back to the last page
      navigation.set({ ...navigation.get(), lastPageTarget: null });
    }
    if (snapshot.last_page === pathname) return;
    saveLastPage(pathname).catch(() => {}); // a lost last page costs a click, not an answer
  }, [loggedIn, status, pathname, snapshot.last_page, navigation]);
}
