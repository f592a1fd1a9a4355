import { Icon } from '@blueprintjs/core';
import errors from '../../../schemas/text/errors.json';
import { useScreenTitle } from '../lib/document-title.ts';
import { partner, partnerText } from '../lib/partner-text.ts';

/**
 * What a staff link shows once the server refuses its token (expired, withdrawn, or not
 * one of ours): nothing failed that a reload would mend, so not the crash screen, and no
 * log-in page, since staff have no account here; it says whom to ask for a new link.
 */
export function StaffLinkEnded() {
  useScreenTitle(errors.staff_link_ended.title);
  return (
    <main className="root-error" id="main">
      <Icon icon="time" size={48} aria-hidden />
      <h1 className="page-title">{errors.staff_link_ended.title}</h1>
      <p>{partnerText(errors.staff_link_ended.body, { admissions_office: partner.admissions_office })}</p>
    </main>
  );
}
