import { memo, Suspense, type ComponentProps } from 'react';
import type { PageModel } from '../../../shared/form/form-model.ts';
import type { FieldErrors } from '../../../shared/validation/field-errors.ts';
import { HiddenAnswersGuard } from './HiddenAnswersGuard.tsx';
import { SectionView } from './SectionView.tsx';
import { useFieldAnchor } from './use-field-anchor.ts';

interface Props {
  page: PageModel;
  errors: FieldErrors;
  loggedIn: boolean;
  serviceView: boolean;
  onFieldBlur?: (key: string) => void;
}

/**
 * A section as a Suspense boundary of its own, so that a page the server drew is taken over
 * section by section (start.tsx). Memoised: a boundary not yet taken over that its parent
 * renders again with new elements is taken over there and then, all sections in one task.
 */
const SectionBoundary = memo(function SectionBoundary(props: ComponentProps<typeof SectionView>) {
  return (
    <Suspense fallback={null}>
      <SectionView {...props} />
    </Suspense>
  );
});

/** One application page, rendered from the form model generated from schemas/. */
export function PageForm({ page, errors, loggedIn, serviceView, onFieldBlur }: Props) {
  useFieldAnchor(true);
  const sections = (
    <div className={`page-form${serviceView ? ' page-form-service' : ''}`} data-page={page.id}>
      {page.sections.map((section) => (
        <SectionBoundary key={section.id} page={page} section={section} errors={errors} loggedIn={loggedIn} serviceView={serviceView} onFieldBlur={onFieldBlur} />
      ))}
    </div>
  );
  return serviceView ? sections : <HiddenAnswersGuard>{sections}</HiddenAnswersGuard>;
}
