import { useLocation } from 'react-router-dom';
import { form } from '../../../shared/form/form-model-data.ts';
import type { PageId } from '../../../shared/form/form-model.ts';
import { useClientSnapshot } from '../../session/client-snapshot.ts';
import { PageForm } from './PageForm.tsx';
import { useAnswersOwner } from './use-answers-owner.ts';
import { usePageErrors } from './use-page-errors.ts';

/** /about, /education-ug, /final-steps: the page's heading and its questions. */
export function FormPageRoute() {
  const { pathname } = useLocation();
  const page = form.pages[pathname.slice(1) as PageId]!;
  const snapshot = useClientSnapshot();
  useAnswersOwner();
  const { errors, revalidate } = usePageErrors(page.id, snapshot.web_status === 'validating');
  return (
    <section className="form-page" aria-labelledby="page-title">
      <h1 id="page-title" className="page-title" tabIndex={-1}>{page.title}</h1>
      <PageForm page={page} errors={errors} loggedIn={snapshot.is_logged_in} serviceView={snapshot.is_service_user} onFieldBlur={revalidate} />
    </section>
  );
}
