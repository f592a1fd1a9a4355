import { Icon } from '@blueprintjs/core';
import { useEffect } from 'react';
import errors from '../../../schemas/text/errors.json';
import { partner, partnerText } from '../lib/partner-text.ts';

/**
 * What a staff link shows once the server refuses its token (expired, withdrawn, or not
 * one of ours): nothing failed that a reload would mend, so not the crash screen, and no
 * log-in page, since staff have no account here; it says whom to ask for a new link.
 */
export function StaffLinkEnded() {
  useEffect(() => {
    const set = () => (document.title = `${errors.staff_link_ended.title} | ${partner.name}`);
    set();
    // the frame names the route's page in its own effect, which may run after this one
    const frame = requestAnimationFrame(set);
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <main className="root-error" id="main">
      <Icon icon="time" size={48} aria-hidden />
      <h1 className="page-title" tabIndex={-1}>{errors.staff_link_ended.title}</h1>
      <p>{partnerText(errors.staff_link_ended.body, { admissions_office: partner.admissions_office })}</p>
    </main>
  );
}
