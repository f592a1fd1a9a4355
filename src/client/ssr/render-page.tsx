/**
 * A form page as HTML, drawn by the same routes, components and schema files as in the
 * browser (the client's start.tsx), from the data the browser's first render reads: the
 * profile, the add-another counts and the tabs (SWR's cache there, its fallback here).
 * Imported by render-worker.ts once the page globals are in place.
 */
import { renderToString } from 'react-dom/server';
import { StaticRouter } from '../lib/routing.tsx';
import { AppTree } from '../app/AppTree.tsx';
import { AppRoutes, firstPageReady } from '../app/router.tsx';
import { registerIcons } from '../lib/icons.ts';
import { swrConfig } from '../lib/swr-config.ts';
import { ADD_ANOTHER_KEY, PROFILE_KEY, TABS_KEY } from '../session/api/session-api.ts';
import { markSignedIn, markSignedOut } from '../session/signed-in.ts';

/** What the server knows of the visit: the applicant's reads, when signed in. */
export interface PageData {
  profile: unknown;
  addAnother: unknown;
  tabs: unknown;
}

/** Resolves when the icons and the form page's module are in, as start.tsx waits for them. */
export const renderReady = Promise.all([registerIcons(), firstPageReady]);

/** The markup React puts in the root element for this page. */
export function renderPage(path: string, search: string, data: PageData | null): string {
  if (data) markSignedIn();
  else markSignedOut();
  const fallback = data ? { [PROFILE_KEY]: data.profile, [ADD_ANOTHER_KEY]: data.addAnother, [TABS_KEY]: data.tabs } : {};
  // a cache of its own for each page: nothing of one applicant is left for the next
  const swr = { ...swrConfig, fallback, provider: () => new Map() };
  return renderToString(
    <AppTree swr={swr}>
      <StaticRouter location={`${path}${search}`}>
        <AppRoutes />
      </StaticRouter>
    </AppTree>,
  );
}
