import { lazyTextWidget } from './lazy-text-widget.tsx';

/** The school search, loaded when a school block first shows (the education page only, once its question is answered). */
export default lazyTextWidget(() => import('./SchoolSearchWidget.tsx'));
