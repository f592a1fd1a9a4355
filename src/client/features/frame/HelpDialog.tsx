import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import frame from '../../../../schemas/text/frame.json';
import { partner, partnerText } from '../../lib/partner-text.ts';
import { focusOnOpen } from '../../lib/overlay-focus.ts';
import { renderTemplate } from '../../lib/render-template.tsx';

const text = frame.help_dialog;

export function HelpDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={text.title} className="app-dialog app-dialog-s" onOpening={focusOnOpen('dialog')}>
      <DialogBody>
        <h3 className="dialog-heading">{text.technical_heading}</h3>
        <p>
          {renderTemplate(partnerText(text.technical_text, { email: '{email}' }), {
            email: <a href={`mailto:${partner.help_email}`}>{partner.help_email}</a>,
          })}
        </p>
        <h3 className="dialog-heading">{text.pdf_heading}</h3>
        <p>
          {text.pdf_text}{' '}
          <a href={partner.pdf_reader_url} target="_blank" rel="noreferrer noopener">{text.pdf_link}</a>
        </p>
        <h3 className="dialog-heading">{text.contact_heading}</h3>
        <address className="contact-block">
          <strong>{partner.name}</strong><br />
          {partner.admissions_office}<br />
          {partner.address.line_1}<br />
          {partner.address.city}, {partner.address.state} {partner.address.zip}<br />
          <a href={`tel:${partner.phone.replace(/[^0-9+]/g, '')}`}>{partner.phone}</a>
        </address>
      </DialogBody>
      <DialogFooter actions={<Button intent="primary" text={text.close} onClick={onClose} />} />
    </Dialog>
  );
}
