import a11y from '../../../schemas/text/accessibility.json';

/** Shown while a page's data or module is on its way. */
export function PageLoading() {
  return <div className="app-loading" role="status" aria-label={a11y.loading} />;
}
