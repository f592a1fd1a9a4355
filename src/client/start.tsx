/**
 * The app itself, started once the page's language is in place (main.tsx): its modules
 * read the texts as they are when they first run.
 */
import { startTransition } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { BrowserRouter } from './lib/routing.tsx';
import type { SWRConfiguration } from 'swr';
import { AppTree } from './app/AppTree.tsx';
import { AppRoutes, firstPageReady } from './app/router.tsx';
import { reportPageProblem } from './features/form/api/page-problem-api.ts';
import { DRAWN_ATTRIBUTE, noteServerFields } from './features/form/typed-before-start.ts';
import { RouteErrorBoundary } from './app/RouteErrorBoundary.tsx';
import { afterSectionsReached, holdDrawnSections } from './features/form/section-reach.ts';
import { registerIcons } from './lib/icons.ts';
import { ignoreStrayKeyReleases } from './lib/stray-key-release.ts';
import { swrConfig } from './lib/swr-config.ts';
import { hasAnswersKept } from './session/carried-answers.ts';
import { lastProfileReads } from './session/profile.ts';

ignoreStrayKeyReleases();
await registerIcons();
await firstPageReady;

// spec section 5: the development-only configuration checks, on localhost only
if (['localhost', '127.0.0.1', '[::1]'].includes(window.location.hostname)) void import('./app/development-checks.ts').then((checks) => checks.runDevelopmentChecks());

// the route boundary's screen (RootErrorScreen) reports what it catches; any other boundary's errors are logged as React would
const onCaughtError = (error: unknown, info: { errorBoundary?: unknown }) => {
  if (!(info.errorBoundary instanceof RouteErrorBoundary)) console.error(error);
};

// React recovers from a drawn page it cannot take over by drawing that part afresh (what was
// typed there is kept: typed-before-start.ts); the server's log is told, without the message's
// arguments, which may quote the page
const onRecoverableError = (error: unknown) => {
  console.error(error);
  const detail = (error instanceof Error ? error.message : String(error)).replace(/\?args\[\][^\s]*/g, '').slice(0, 300);
  reportPageProblem({ problem: 'hydration-error', page: window.location.pathname, detail });
};

const appWith = (swr: SWRConfiguration, onCommitted?: () => void) => (
  <AppTree swr={swr} onCommitted={onCommitted}>
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  </AppTree>
);

// Safari has no requestIdleCallback: a timer there
const whenIdle = (run: () => void) => (window.requestIdleCallback ? window.requestIdleCallback(run) : setTimeout(run, 50));

const container = document.getElementById('root')!;
// what the server drew (a form page, src/server/render/) and what was typed in it since is noted first
const drawn = noteServerFields(container);
// answers this tab kept (an anonymous visitor's, a failed save's) make a page the server could not draw: drawn afresh
if (drawn && !hasAnswersKept()) {
  // SWR takes the page over with its cache as it was before the profile reads (profile.ts): they are its fallback
  // until then, and no longer (after a logout the fallback would show the profile again)
  // once taken over, the root no longer says it is the server's drawing: the page now answers clicks and keys
  //
  // The take-over is a transition, and each form section a Suspense boundary of its own
  // (PageForm): React takes over the frame first, then each section as the applicant comes to
  // it (section-reach.ts), in short tasks, so a key pressed meanwhile waits for its own
  // section only. The render without the fallback changes a context every section reads, so it
  // waits until no section is held (or the page is left): until then SWR's fallback stays.
  const tookOver = () => {
    container.removeAttribute(DRAWN_ATTRIBUTE);
    afterSectionsReached(() => whenIdle(() => startTransition(() => root.render(appWith(swrConfig)))));
  };
  holdDrawnSections(container);
  let root!: Root;
  startTransition(() => {
    root = hydrateRoot(container, appWith({ ...swrConfig, fallback: lastProfileReads() }, tookOver), { onCaughtError, onRecoverableError });
  });
} else {
  // a drawn page drawn afresh says so too, once the browser's page has replaced it
  createRoot(container, { onCaughtError }).render(appWith(swrConfig, drawn ? () => container.removeAttribute(DRAWN_ATTRIBUTE) : undefined));
}
