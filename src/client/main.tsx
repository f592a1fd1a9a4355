import '@blueprintjs/core/lib/css/blueprint.css';
import './styles/app.css';
import './styles/form.css';
import './styles/lookup.css';
import './styles/a11y.css';
import { applyLanguage } from './i18n/apply-language.ts';

// the texts go into the modules before any module of the app runs (some read them once, as they load)
await applyLanguage(document.documentElement.lang);
await import('./start.tsx');
