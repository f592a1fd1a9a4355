import '@blueprintjs/core/lib/css/blueprint.css';
import './styles/app.css';
import './styles/form.css';
import './styles/lookup.css';
import './styles/a11y.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { AppRoutes, firstPageReady } from './app/router.tsx';
import { registerIcons } from './lib/icons.ts';
import { swrConfig } from './lib/swr-config.ts';
import { ToastProvider } from './lib/toasts.tsx';

await registerIcons();
await firstPageReady;

// spec section 5: the development-only configuration checks, on localhost only
if (['localhost', '127.0.0.1', '[::1]'].includes(window.location.hostname)) void import('./app/development-checks.ts').then((checks) => checks.runDevelopmentChecks());

// errors a boundary catches are reported by the boundary's screen (RootErrorScreen), not twice
createRoot(document.getElementById('root')!, { onCaughtError: () => undefined }).render(
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
