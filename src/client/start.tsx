/**
 * The app itself, started once the page's language is in place (main.tsx): its modules
 * read the texts as they are when they first run.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { AppRoutes, firstPageReady } from './app/router.tsx';
import { RouteErrorBoundary } from './app/RouteErrorBoundary.tsx';
import { registerIcons } from './lib/icons.ts';
import { ignoreStrayKeyReleases } from './lib/stray-key-release.ts';
import { swrConfig } from './lib/swr-config.ts';
import { ToastProvider } from './lib/toasts.tsx';

ignoreStrayKeyReleases();
await registerIcons();
await firstPageReady;

// spec section 5: the development-only configuration checks, on localhost only
if (['localhost', '127.0.0.1', '[::1]'].includes(window.location.hostname)) void import('./app/development-checks.ts').then((checks) => checks.runDevelopmentChecks());

// the route boundary's screen (RootErrorScreen) reports what it catches; any other boundary's errors are logged as React would
const onCaughtError = (error: unknown, info: { errorBoundary?: unknown }) => {
  if (!(info.errorBoundary instanceof RouteErrorBoundary)) console.error(error);
};

createRoot(document.getElementById('root')!, { onCaughtError }).render(
  <StrictMode>
    <SWRConfig value={swrConfig}>
      <ToastProvider>
        {/* no transitions: the old page must not stay on screen, focusable, while the new one renders */}
        <BrowserRouter useTransitions={false}>
          <AppRoutes />
        </BrowserRouter>
      </ToastProvider>
    </SWRConfig>
  </StrictMode>,
);
