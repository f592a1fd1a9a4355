import '@blueprintjs/core/lib/css/blueprint.css';
import '../src/client/styles/app.css';
import '../src/client/styles/form.css';
import '../src/client/styles/lookup.css';
import '../src/client/styles/a11y.css';
import './preview.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerIcons } from '../src/client/lib/icons.ts';
import { BrowserRouter } from '../src/client/lib/routing.tsx';
import { ToastProvider } from '../src/client/lib/toasts.tsx';
import { PreviewApp } from './PreviewApp.tsx';

await registerIcons();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ToastProvider>
      {/* the form's anchors (/page#key) read the location */}
      <BrowserRouter>
        <PreviewApp />
      </BrowserRouter>
    </ToastProvider>
  </StrictMode>,
);
