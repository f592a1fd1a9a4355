import { lazy, Suspense, useCallback } from 'react';
import { useLocation } from '../lib/routing.tsx';
import a11y from '../../../schemas/text/accessibility.json';
import { form } from '../../shared/form/form-model-data.ts';
import type { PageId } from '../../shared/form/form-model.ts';
import { FormRegistryContext } from '../features/form/form-registry-context.ts';
import { PageForm } from '../features/form/PageForm.tsx';
import { MissingInfoPanel } from '../features/lifecycle/MissingInfoPanel.tsx';
import { PageActions } from '../features/lifecycle/PageActions.tsx';
import { SaveStatus } from '../features/lifecycle/SaveStatus.tsx';
import { useClientSnapshot } from '../session/client-snapshot.ts';
import { useApplicationErrors, useApplicationSession } from '../session/session-hooks.ts';
import { formRegistry } from './form-registry.ts';

// staff alone see it (the service view and its PDF copy): kept out of an applicant's first visit
const StaffApplicationFile = lazy(async () => ({ default: (await import('../features/application-file/StaffApplicationFile.tsx')).StaffApplicationFile }));

const NO_ERRORS = {};

// with scripts the page saves as it goes; a post is what the server's drawing of it does without them
const keepOnPage = (event: React.FormEvent) => event.preventDefault();

/** /about, /education-ug, /final-steps: the page's heading, what is missing (after a refused submit), its questions and its buttons. */
export function FormPageRoute() {
  const { pathname } = useLocation();
  const page = form.pages[pathname.slice(1) as PageId]!;
  const snapshot = useClientSnapshot();
  const session = useApplicationSession();
  const revalidate = useCallback(() => void session.errors.revalidate(), [session]);
  const errors = useApplicationErrors()[page.id] ?? NO_ERRORS;
  return (
    <section className="form-page">
      <div className="page-heading">
        <h1 id="page-title" className="page-title">{page.title}</h1>
        {snapshot.is_logged_in && !snapshot.is_service_user && <SaveStatus />}
      </div>
      {/* the server's message after a post without scripts (src/server/render/page-post-texts.ts) */}
      <noscript data-slot="page-notice" />
      {/* under the h1: its h2 and h3 belong to this page's outline, read after the page's name */}
      <MissingInfoPanel />
      {/* staff read the file's states first, once: on the first page (and so the PDF copy's first page) */}
      {snapshot.is_service_user && page.id === form.pageOrder[0] && <Suspense fallback={null}><StaffApplicationFile /></Suspense>}
      {!snapshot.is_service_user && <p className="required-note">{a11y.required_note}</p>}
      {/* a real form, so the server's drawing of the page saves without scripts; its button is in the noscript */}
      <form method="post" noValidate onSubmit={keepOnPage}>
        <FormRegistryContext.Provider value={formRegistry}>
          <PageForm page={page} errors={errors} loggedIn={snapshot.is_logged_in} serviceView={snapshot.is_service_user} onFieldBlur={revalidate} />
        </FormRegistryContext.Provider>
        <noscript data-slot="page-save" />
      </form>
      {!snapshot.is_service_user && <PageActions page={page.id} />}
    </section>
  );
}
