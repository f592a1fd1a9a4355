import '@blueprintjs/core/lib/css/blueprint.css';
import '../src/client/styles/app.css';
import '../src/client/styles/form.css';
import '../src/client/styles/lookup.css';
import '../src/client/styles/a11y.css';
import './preview.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { registerIcons } from '../src/client/lib/icons.ts';
import { ToastProvider } from '../src/client/lib/toasts.tsx';
import { PreviewApp } from './PreviewApp.tsx';

await registerIcons();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ToastProvider>
      {/* the form's anchors (/page#key) read the location */}
      <BrowserRouter useTransitions={false}>
        <PreviewApp />
      </BrowserRouter>
    </ToastProvider>
  </StrictMode>,
);
