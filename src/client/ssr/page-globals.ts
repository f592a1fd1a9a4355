/**
 * The little of a browser the app reads while it renders, for drawing a page in a worker
 * thread of the server (render-worker.ts): where the page is, the readable `logged_in`
 * cookie, an empty tab and browser storage. Nothing here runs in a browser. A render is synchronous,
 * so one worker's renders never see each other's page.
 */

interface PageGlobals {
  /** Sets what the next render reads: the page's path and query, and whether the visitor is signed in. */
  visit(path: string, search: string, signedIn: boolean): void;
}

const noop = () => {};

export function installPageGlobals(language: string): PageGlobals {
  const location = { pathname: '/', search: '', hash: '', hostname: 'localhost', origin: 'http://localhost', href: 'http://localhost/' };
  let cookie = '';
  const storage = new Map<string, string>();
  const sessionStorage = {
    get length() {
      return storage.size;
    },
    key: (index: number) => [...storage.keys()][index] ?? null,
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: noop,
    removeItem: noop,
    clear: noop,
  };
  const document = {
    documentElement: { lang: language },
    get cookie() {
      return cookie;
    },
    set cookie(_value: string) {},
    visibilityState: 'visible',
    activeElement: null,
    addEventListener: noop,
    removeEventListener: noop,
    querySelector: () => null,
    querySelectorAll: () => [],
    getElementById: () => null,
    hasFocus: () => false,
  };
  Object.assign(globalThis, {
    window: globalThis,
    document,
    location,
    sessionStorage,
    // the server draws what the server holds: an applicant's unsaved answers are shown once the browser has the page
    localStorage: sessionStorage,
    addEventListener: noop,
    removeEventListener: noop,
  });
  return {
    visit(path, search, signedIn) {
      location.pathname = path;
      location.search = search;
      location.href = `${location.origin}${path}${search}`;
      cookie = signedIn ? 'logged_in=1' : '';
    },
  };
}
