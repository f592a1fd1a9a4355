import { Callout } from '@blueprintjs/core';
import { useLocation } from 'react-router-dom';
import frame from '../../../schemas/text/frame.json';

/** Until the form engine renders a step's questions: the step's heading and a placeholder. */
export function FormPagePlaceholder() {
  const { pathname } = useLocation();
  const step = frame.steps.find((candidate) => candidate.path === pathname);
  return (
    <section className="form-page" aria-labelledby="page-title">
      <h1 id="page-title" className="page-title" tabIndex={-1}>{step?.label}</h1>
      <Callout icon="document" className="form-placeholder">{frame.form_placeholder}</Callout>
    </section>
  );
}
