import { Button } from '@blueprintjs/core';
import { useState } from 'react';
import { Link, useLocation } from '../../lib/routing.tsx';
import a11y from '../../../../schemas/text/accessibility.json';
import frame from '../../../../schemas/text/frame.json';
import { ACCESSIBILITY_PATH } from '../../../shared/accessibility-statement.ts';
import { partner } from '../../lib/partner-text.ts';
import { anonymousAnswers } from '../../session/carried-answers.ts';
import { readNavigationState } from '../../session/navigation-state.ts';
import { HelpDialog } from './HelpDialog.tsx';
import { PrivacyDialog } from './PrivacyDialog.tsx';

/**
 * The partner's footer with Help, Privacy and the accessibility statement. On the account pages it also leads back to the
 * application, carrying the answers typed so far in navigation state (spec section 2).
 */
export function Footer({ showDialogs = true, applicationLink = false }: { showDialogs?: boolean; applicationLink?: boolean }) {
  const [open, setOpen] = useState<'help' | 'privacy' | null>(null);
  const location = useLocation();
  const carried = () => ({ answers: { ...anonymousAnswers(), ...readNavigationState(location.state).answers } });
  return (
    <footer className="app-footer">
      <div className="footer-inner">
        <div className="footer-partner">
          <strong>{partner.name}</strong>
          {/* one text: the server's drawing splits {a} {b} into text nodes, and Orca heard "WI53012" */}
          <span>{`${partner.address.line_1}, ${partner.address.city}, ${partner.address.state} ${partner.address.zip}`}</span>
        </div>
        {showDialogs && (
          <nav className="footer-links" aria-label={a11y.footer_label}>
            {applicationLink && <Link className="bp6-button bp6-minimal" to={partner.default_route} state={carried()}>{frame.footer.application}</Link>}
            <Button variant="minimal" text={frame.footer.help} onClick={() => setOpen('help')} />
            <Button variant="minimal" text={frame.footer.privacy} onClick={() => setOpen('privacy')} />
            <Link className="bp6-button bp6-minimal" to={ACCESSIBILITY_PATH}>{frame.footer.accessibility}</Link>
          </nav>
        )}
      </div>
      <HelpDialog isOpen={open === 'help'} onClose={() => setOpen(null)} />
      <PrivacyDialog isOpen={open === 'privacy'} onClose={() => setOpen(null)} />
    </footer>
  );
}
