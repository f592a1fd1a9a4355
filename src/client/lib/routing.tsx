import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';

/**
 * The app's routing: where the browser is (path, query, fragment, and the state a navigation
 * handed over) and a way to move, over the History API. The app has a dozen fixed paths and
 * no nested or dynamic ones (router.tsx picks the page), so this is all it needs of a router;
 * React Router cost 12 KB gzip of every first visit and about 20 ms of a phone's CPU at start.
 * Entries are kept as React Router kept them (`history.state` = `{ usr, key }`), so a page
 * reloaded keeps the state it was shown with.
 */

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** what the navigation that led here handed over (null for none) */
  state: unknown;
  /** one per history entry: 'default' for the first page and any the browser made itself (a fragment) */
  key: string;
}

export type To = string | { pathname?: string; search?: string; hash?: string };
export interface NavigateOptions { replace?: boolean; state?: unknown }
export type NavigateFunction = (to: To, options?: NavigateOptions) => void;

interface Routing { location: Location; navigate: NavigateFunction }

const RoutingContext = createContext<Routing | null>(null);

function useRouting(): Routing {
  const routing = useContext(RoutingContext);
  if (!routing) throw new Error('Routing is used outside BrowserRouter or StaticRouter');
  return routing;
}

/** The address `to` names, from the page at `from`: a path is absolute; an object keeps the current path when it names none. */
export function hrefOf(to: To, from: Location): string {
  if (typeof to === 'string') return to;
  return `${to.pathname ?? from.pathname}${to.search ?? ''}${to.hash ?? ''}`;
}

// the browser's history, as one store every hook reads
let current: Location | null = null;
const listeners = new Set<() => void>();

function readBrowserLocation(): Location {
  const { pathname, search, hash } = window.location;
  const entry = window.history.state as { usr?: unknown; key?: unknown } | null;
  return { pathname, search, hash, state: entry?.usr ?? null, key: typeof entry?.key === 'string' ? entry.key : 'default' };
}

function browserLocation(): Location {
  return (current ??= readBrowserLocation());
}

function moved(): void {
  current = readBrowserLocation();
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  if (!listeners.size) {
    window.addEventListener('popstate', moved);
    // a move before anyone listened (the back button while the page was starting)
    const seen = browserLocation();
    const now = readBrowserLocation();
    if (now.pathname !== seen.pathname || now.search !== seen.search || now.hash !== seen.hash || now.key !== seen.key) current = now;
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (!listeners.size) window.removeEventListener('popstate', moved);
  };
}

const browserNavigate: NavigateFunction = (to, { replace = false, state = null } = {}) => {
  const entry = { usr: state, key: Math.random().toString(36).slice(2, 10) };
  const href = hrefOf(to, browserLocation());
  if (replace) window.history.replaceState(entry, '', href);
  else window.history.pushState(entry, '', href);
  moved();
};

/** Routing over the browser's history. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const location = useSyncExternalStore(subscribe, browserLocation, browserLocation);
  const routing = useMemo(() => ({ location, navigate: browserNavigate }), [location]);
  return <RoutingContext.Provider value={routing}>{children}</RoutingContext.Provider>;
}

/** Routing fixed at one address (the server's drawing of a page): nothing moves. */
export function StaticRouter({ location: href, children }: { location: string; children: ReactNode }) {
  const routing = useMemo(() => {
    const url = new URL(href, 'http://drawn.invalid');
    return { location: { pathname: url.pathname, search: url.search, hash: '', state: null, key: 'default' }, navigate: () => {} };
  }, [href]);
  return <RoutingContext.Provider value={routing}>{children}</RoutingContext.Provider>;
}

export function useLocation(): Location {
  return useRouting().location;
}

export function useNavigate(): NavigateFunction {
  return useRouting().navigate;
}

/** The query string's parameters. */
export function useSearchParams(): [URLSearchParams] {
  const { search } = useLocation();
  return [useMemo(() => new URLSearchParams(search), [search])];
}

/** Goes to `to` once rendered (a redirect). */
export function Navigate({ to, replace, state }: { to: To } & NavigateOptions) {
  const { navigate, location } = useRouting();
  const href = hrefOf(to, location);
  useEffect(() => navigate(href, { replace, state }), [navigate, href, replace, state]);
  return null;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & NavigateOptions & { to: To };

/** A plain click follows it in the page; a click that opens a new tab or window is the browser's. */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  const target = event.currentTarget.getAttribute('target');
  return !event.defaultPrevented && event.button === 0 && (!target || target === '_self')
    && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
}

/** A link within the app: a real address (it opens in a new tab, and works before scripts), followed in the page. */
export function Link({ to, replace, state, onClick, ...anchor }: LinkProps) {
  const { location, navigate } = useRouting();
  const href = hrefOf(to, location);
  return (
    <a {...anchor} href={href} onClick={(event) => {
      onClick?.(event);
      if (!isPlainClick(event)) return;
      event.preventDefault();
      // a link to where the page already is replaces the entry, as a browser's own would not add one
      const here = `${location.pathname}${location.search}${location.hash}`;
      navigate(href, { replace: replace ?? here === href, state });
    }} />
  );
}

/** A link that knows whether it leads to the page shown: its class and aria-current say so when it does. */
export function NavLink({ className, 'aria-current': ariaCurrent = 'page', ...props }: Omit<LinkProps, 'className'> & {
  className: (state: { isActive: boolean }) => string;
}) {
  const { location } = useRouting();
  const path = hrefOf(props.to, location).replace(/[?#].*$/, '').toLowerCase();
  const shown = location.pathname.toLowerCase();
  const isActive = shown === path || (shown.startsWith(path) && shown.charAt(path.length) === '/');
  return <Link {...props} className={className({ isActive })} aria-current={isActive ? ariaCurrent : undefined} />;
}
