import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import frame from '../../../../schemas/text/frame.json';
import { focusOnOpen } from '../../lib/overlay-focus.ts';
import { partner, partnerText } from '../../lib/partner-text.ts';

const text = frame.privacy_dialog;

export function PrivacyDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={text.title} className="app-dialog app-dialog-s" onOpening={focusOnOpen('dialog')}>
      <DialogBody>
        {text.paragraphs.map((paragraph) => <p key={paragraph}>{partnerText(paragraph)}</p>)}
        <p>
          <a href={partner.privacy_policy_url} target="_blank" rel="noreferrer noopener">{partnerText(text.policy_link)}</a>
        </p>
        <h3 className="dialog-heading">{text.browser_help_heading}</h3>
        <ul>
          {text.browser_help.map((link) => (
            <li key={link.url}><a href={link.url} target="_blank" rel="noreferrer noopener">{link.label}</a></li>
          ))}
        </ul>
      </DialogBody>
      <DialogFooter actions={<Button intent="primary" text={text.close} onClick={onClose} />} />
    </Dialog>
  );
}
