import { useEffect, useState, type ComponentType } from 'react';
import partner from '../../../schemas/partner.json';
import errors from '../../../schemas/text/errors.json';
import { form } from '../../shared/form/form-model-data.ts';
import { setUnauthorizedHandler } from '../lib/api-client.ts';
import { clearClientData } from '../session/end-session.ts';
import { serviceTokenOf } from '../session/service-token.ts';
import { AuthFrame } from './AuthFrame.tsx';
import { FormFrame } from './FormFrame.tsx';
import { LocationRuleGate } from './LocationRuleGate.tsx';
import { PageLoading } from './PageLoading.tsx';
import { accountPagesRule, completionRule } from './location-rules.ts';
import { ProfileGate, startFirstProfileLoad } from './ProfileGate.tsx';
import { RootLayout } from './RootLayout.tsx';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';
import { ACCOUNT_PATHS } from './account-paths.ts';
import { ACCESSIBILITY_PATH } from '../../shared/accessibility-statement.ts';
import { Navigate, useLocation, useNavigate, type NavigateFunction } from '../lib/routing.tsx';

/*
 * The pages by path, each in its frame (routing.tsx has the location). The profile is read
 * before the form frame renders (ProfileGate), the location rules redirect before a page
 * renders (LocationRuleGate), and lazyPage loads each page's module.
 */

/**
 * A page whose module loads when it is first shown, or earlier through `preload`; the frame
 * around it stays. Not React.lazy: a Suspense fallback, once shown, holds back the page for
 * React's reveal throttle (up to 300 ms) even when the module is already there.
 */
function lazyPage(load: () => Promise<ComponentType>) {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const preload = () => (loading ??= load().then((component) => (loaded = component)));
  function LazyPage() {
    const [Page, setPage] = useState<ComponentType | null>(() => loaded);
    const [failure, setFailure] = useState<unknown>(null);
    useEffect(() => {
      if (Page) return;
      let current = true;
      preload().then((component) => current && setPage(() => component), (error: unknown) => current && setFailure(error ?? new Error('Page failed to load')));
      return () => {
        current = false;
      };
    }, [Page]);
    if (failure) throw failure;
    return Page ? <Page /> : <PageLoading />;
  }
  return { element: <LazyPage />, preload };
}

// one for the three steps: moving between them keeps the page component (and what it holds)
const formPage = lazyPage(async () => (await import('./FormPageRoute.tsx')).FormPageRoute);
const pages: Record<string, ReturnType<typeof lazyPage>> = {
  ...Object.fromEntries(form.pageOrder.map((page) => [`/${page}`, formPage])),
  '/completion': lazyPage(async () => (await import('./CompletionPage.tsx')).CompletionPage),
  '/signup': lazyPage(async () => (await import('../features/accounts/SignupPage.tsx')).SignupPage),
  '/confirm': lazyPage(async () => (await import('../features/accounts/ConfirmPage.tsx')).ConfirmPage),
  '/login': lazyPage(async () => (await import('../features/accounts/LoginPage.tsx')).LoginPage),
  '/forgot': lazyPage(async () => (await import('../features/accounts/ForgotPage.tsx')).ForgotPage),
  '/reset': lazyPage(async () => (await import('../features/accounts/ResetPage.tsx')).ResetPage),
  [ACCESSIBILITY_PATH]: lazyPage(async () => (await import('./AccessibilityPage.tsx')).AccessibilityPage),
  '/unsubscribe': lazyPage(async () => (await import('../features/reminders/UnsubscribePage.tsx')).UnsubscribePage),
  '/counselor': lazyPage(async () => (await import('../features/application-file/CounselorPage.tsx')).CounselorPage),
};
const formPaths = form.pageOrder.map((page) => `/${page}`);

// what the first page needs starts as this script runs, side by side, as the data router's loaders did
const firstPage = pages[window.location.pathname]?.preload().catch(() => undefined);
const firstProfile = [...formPaths, '/completion'].includes(window.location.pathname) ? startFirstProfileLoad() : undefined;

/**
 * Settles when the first page's module and the profile are in (or have failed: the page
 * reports that). Rendering after it draws the frame and the page in one go, as the data
 * router's first render did, instead of the gate, then the frame, then the page.
 */
export const firstPageReady = Promise.all([firstPage, firstProfile?.catch(() => undefined)]).then(() => undefined);

const knownPaths = Object.keys(pages);

/** A known page's address typed in another case or with a trailing slash goes to that page; any other to the default route. The query is kept. */
function RedirectUnknownPath() {
  const { pathname, search, hash } = useLocation();
  const known = knownPaths.find((path) => path === pathname.toLowerCase().replace(/\/+$/, ''));
  return <Navigate to={known ? { pathname: known, search, hash } : { pathname: partner.default_route, search }} replace />;
}

/** The page at the location's path in its frame; the frame (and the form page's component) stays while the visitor moves between pages that share it. */
function PageAtPath({ pathname }: { pathname: string }) {
  if (formPaths.includes(pathname)) return <ProfileGate><FormFrame>{pages[pathname]!.element}</FormFrame></ProfileGate>;
  if (pathname === '/completion') {
    return <ProfileGate><FormFrame><LocationRuleGate rule={completionRule}>{pages[pathname]!.element}</LocationRuleGate></FormFrame></ProfileGate>;
  }
  // the accessibility statement: open to anyone, in the frame of the account pages
  if (pathname === ACCESSIBILITY_PATH) return <AuthFrame>{pages[pathname]!.element}</AuthFrame>;
  // a reminder's link: for whoever holds it, signed in or not
  if (pathname === '/unsubscribe') return <AuthFrame>{pages[pathname]!.element}</AuthFrame>;
  // a counselor's link: no account, signed in or not; the link's token (in the fragment) is the authority
  if (pathname === '/counselor') return <AuthFrame>{pages[pathname]!.element}</AuthFrame>;
  if ((ACCOUNT_PATHS as readonly string[]).includes(pathname)) {
    return <LocationRuleGate rule={accountPagesRule}><AuthFrame>{pages[pathname]!.element}</AuthFrame></LocationRuleGate>;
  }
  return <RedirectUnknownPath />;
}

export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary>
      <UnauthorizedRedirect />
      <RootLayout>
        <PageAtPath pathname={pathname} />
      </RootLayout>
    </RouteErrorBoundary>
  );
}

// spec section 8: a 401 anywhere clears cached data and goes to /login with the session-invalid message
let navigator: NavigateFunction | null = null;
let unauthorizedBeforeMount = false;
const toLogin = (navigate: NavigateFunction) => void navigate('/login', { replace: true, state: { errorMessage: errors.session_invalid } });
setUnauthorizedHandler(() => {
  // a staff link has no log-in to return to: its page says the link has ended (ProfileGate)
  if (serviceTokenOf()) return;
  void clearClientData();
  if (navigator) toLogin(navigator);
  else unauthorizedBeforeMount = true; // the first profile read starts before React renders
});

/** Gives the 401 handler the router's navigate function. */
function UnauthorizedRedirect() {
  const navigate = useNavigate();
  useEffect(() => {
    navigator = navigate;
    if (unauthorizedBeforeMount) {
      unauthorizedBeforeMount = false;
      toLogin(navigate);
    }
    return () => {
      navigator = null;
    };
  }, [navigate]);
  return null;
}
