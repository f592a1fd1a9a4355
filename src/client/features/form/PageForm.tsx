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

/** One application page, rendered from the form model generated from schemas/. */
export function PageForm({ page, errors, loggedIn, serviceView, onFieldBlur }: Props) {
  useFieldAnchor(true);
  const sections = (
    <div className={`page-form${serviceView ? ' page-form-service' : ''}`} data-page={page.id}>
      {page.sections.map((section) => (
        <SectionView
          key={section.id}
          page={page}
          section={section}
          errors={errors}
          loggedIn={loggedIn}
          serviceView={serviceView}
          onFieldBlur={onFieldBlur}
        />
      ))}
    </div>
  );
  return serviceView ? sections : <HiddenAnswersGuard>{sections}</HiddenAnswersGuard>;
}
