import { Icon } from '@blueprintjs/core';
import { useState } from 'react';
import { Link, useLocation } from '../../lib/routing.tsx';
import a11y from '../../../../schemas/text/accessibility.json';
import frame from '../../../../schemas/text/frame.json';
import { form } from '../../../shared/form/form-model-data.ts';
import type { PageId } from '../../../shared/form/form-model.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { useClientSnapshot } from '../../session/client-snapshot.ts';
import { useApplicationErrors } from '../../session/session-hooks.ts';

const text = frame.missing_info;
/** The id a refused submit sends focus to (navigation state `focusTarget`). */
export const MISSING_INFO_HEADING_ID = 'missing-info-title';
/** Wider than a phone: every page's list starts open. On a phone only the current page's does. */
const WIDE = '(min-width: 40.01rem)';

/** Each page's answer keys in reading order: the summary lists messages as the page shows them. */
const readingOrder: Partial<Record<PageId, Map<string, number>>> = {};
function orderOf(page: PageId): Map<string, number> {
  readingOrder[page] ??= new Map(form.pages[page].sections.flatMap((section) => section.keys).map((key, index) => [key, index]));
  return readingOrder[page]!;
}

function startsWide(): boolean {
  return typeof window === 'undefined' || typeof window.matchMedia !== 'function' || window.matchMedia(WIDE).matches;
}

/**
 * Spec "Missing-information panel": while the application is being validated, the pages
 * with missing or incorrect items and each message as a link to /{page}#{fieldKey}. Its
 * heading and text are an alert, so they are announced when the panel appears; each page's
 * messages are a disclosure (open on a wide screen; on a phone, open for the current page).
 */
export function MissingInfoPanel() {
  const snapshot = useClientSnapshot();
  const errors = useApplicationErrors();
  const { pathname } = useLocation();
  const [wide] = useState(startsWide);
  const pages = form.pageOrder.filter((page) => Object.keys(errors[page] ?? {}).length);
  if (snapshot.web_status !== 'validating' || snapshot.is_service_user || !pages.length) return null;
  const current = pathname.slice(1);
  const countOf = (page: PageId) => Object.values(errors[page] ?? {}).reduce((sum, messages) => sum + messages.length, 0);
  return (
    <section className="missing-info" aria-labelledby={MISSING_INFO_HEADING_ID}>
      <div role="alert" className="missing-info-announce">
        <h2 id={MISSING_INFO_HEADING_ID} className="missing-info-title">
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
        // keyed by the current page: moving to another page opens that page's list on a phone
        <details key={`${page}:${wide ? '' : current}`} className="error-summary-page" open={wide || page === current}>
          <summary>{fillTemplate(a11y.missing_info_page_summary, { page: form.pages[page].title, count: countOf(page) })}</summary>
          <ul className="error-summary">
            {Object.entries(errors[page as PageId]!)
              .sort(([a], [b]) => (orderOf(page).get(a) ?? Infinity) - (orderOf(page).get(b) ?? Infinity))
              .flatMap(([key, messages]) => messages.map((message) => (
              <li key={`${key}-${message}`}>
                <Icon icon="error" intent="danger" aria-hidden />
                {form.fields[key] ? <Link to={`/${page}#${key}`}>{message}</Link> : <span>{message}</span>}
              </li>
            )))}
          </ul>
        </details>
      ))}
    </section>
  );
}
