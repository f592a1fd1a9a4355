import { Button } from '@blueprintjs/core';
import { useState } from 'react';
import a11y from '../../../../schemas/text/accessibility.json';
import frame from '../../../../schemas/text/frame.json';
import { partner } from '../../lib/partner-text.ts';
import { HelpDialog } from './HelpDialog.tsx';
import { PrivacyDialog } from './PrivacyDialog.tsx';

export function Footer({ showDialogs = true }: { showDialogs?: boolean }) {
  const [open, setOpen] = useState<'help' | 'privacy' | null>(null);
  return (
    <footer className="app-footer">
      <div className="footer-inner">
        <div className="footer-partner">
          <strong>{partner.name}</strong>
          <span>{partner.address.line_1}, {partner.address.city}, {partner.address.state} {partner.address.zip}</span>
        </div>
        {showDialogs && (
          <nav className="footer-links" aria-label={a11y.footer_label}>
            <Button variant="minimal" text={frame.footer.help} onClick={() => setOpen('help')} />
            <Button variant="minimal" text={frame.footer.privacy} onClick={() => setOpen('privacy')} />
          </nav>
        )}
      </div>
      <HelpDialog isOpen={open === 'help'} onClose={() => setOpen(null)} />
      <PrivacyDialog isOpen={open === 'privacy'} onClose={() => setOpen(null)} />
    </footer>
  );
}
