import { StrictMode, useEffect, type ReactNode } from 'react';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { ToastProvider } from '../lib/toasts.tsx';

/**
 * What wraps the routes, the same in the browser (start.tsx) and in the server's drawing of
 * a form page (src/client/ssr/render-page.tsx): the two must make the same tree for the
 * browser to take over the server's markup. `children` is the router with the routes.
 */
export function AppTree({ swr, children, onCommitted }: { swr: SWRConfiguration; children: ReactNode; onCommitted?: () => void }) {
  // after the whole tree's first commit (a parent's effects run after its children's)
  useEffect(() => onCommitted?.(), [onCommitted]);
  return (
    <StrictMode>
      <SWRConfig value={swr}>
        <ToastProvider>{children}</ToastProvider>
      </SWRConfig>
    </StrictMode>
  );
}
