import '@blueprintjs/core/lib/css/blueprint.css';
import './styles/app.css';
import './styles/form.css';
import './styles/lookup.css';
import './styles/a11y.css';
import { applyLanguage } from './i18n/apply-language.ts';

// the page's language is named before any module of the app runs (its texts are in this language's build)
applyLanguage(document.documentElement.lang);
await import('./start.tsx');
