import { Icon } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import frame from '../../../../schemas/text/frame.json';
import { form } from '../../../shared/form/form-model-data.ts';
import type { PageId } from '../../../shared/form/form-model.ts';
import { useClientSnapshot } from '../../session/client-snapshot.ts';
import { useApplicationErrors } from './application-errors.ts';

const text = frame.missing_info;

/**
 * Spec "Missing-information panel": while the application is being validated, the pages
 * with missing or incorrect items and each message as a link to /{page}#{fieldKey}.
 */
export function MissingInfoPanel() {
  const snapshot = useClientSnapshot();
  const errors = useApplicationErrors();
  const pages = form.pageOrder.filter((page) => Object.keys(errors[page] ?? {}).length);
  if (snapshot.web_status !== 'validating' || snapshot.is_service_user || !pages.length) return null;
  return (
    <section className="missing-info" aria-labelledby="missing-info-title" role="region">
      <div role="alert" className="missing-info-announce">
        <h2 id="missing-info-title" className="missing-info-title">
          <Icon icon="warning-sign" intent="danger" aria-hidden /> {text.title}
        </h2>
        <p>{text.body}</p>
      </div>
      <h3 className="missing-info-heading">{text.pages_heading}</h3>
      <ul className="missing-pages">
        {pages.map((page) => (
          <li key={page}>
            <Link to={`/${page}`}>{form.pages[page].title}</Link> ({Object.keys(errors[page]!).length})
          </li>
        ))}
      </ul>
      <h3 className="missing-info-heading">{text.summary_heading}</h3>
      {pages.map((page) => (
        <div key={page} className="error-summary-page">
          <h4>{form.pages[page].title}</h4>
          <ul className="error-summary">
            {Object.entries(errors[page as PageId]!).flatMap(([key, messages]) => messages.map((message) => (
              <li key={`${key}-${message}`}>
                <Icon icon="error" intent="danger" aria-hidden />{' '}
                {form.fields[key] ? <Link to={`/${page}#${key}`}>{message}</Link> : <span>{message}</span>}
              </li>
            )))}
          </ul>
        </div>
      ))}
    </section>
  );
}
