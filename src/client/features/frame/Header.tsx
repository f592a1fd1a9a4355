import frame from '../../../../schemas/text/frame.json';
import { partner } from '../../lib/partner-text.ts';
import { SpokenSpace } from '../../lib/spoken-space.tsx';
import { AccountPopover } from './AccountPopover.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';

export function Header({ showAccount = true }: { showAccount?: boolean }) {
  return (
    <header className="app-header">
      <div className="header-inner">
        <div className="header-brand">
          <span className="header-partner">{partner.name}</span>
          <SpokenSpace />
          <span className="header-title">{frame.header.application_title}</span>
        </div>
        <div className="header-tools">
          <LanguageSwitch />
          {showAccount && <AccountPopover />}
        </div>
      </div>
    </header>
  );
}
