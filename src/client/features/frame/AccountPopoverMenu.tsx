import { Button, PopoverNext, PopupKind } from '@blueprintjs/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from '../../lib/routing.tsx';
import messages from '../../../../schemas/auth/messages.json';
import frame from '../../../../schemas/text/frame.json';
import { anonymousAnswers, keepAnonymousAnswers } from '../../session/carried-answers.ts';
import { useClientSnapshot } from '../../session/client-snapshot.ts';
import { logout } from '../../session/end-session.ts';
import { useOptionalApplicationSession } from '../../session/session-hooks.ts';
import { focusOnOpen } from '../../lib/overlay-focus.ts';
import { ReminderSwitch } from '../reminders/ReminderSwitch.tsx';
import { AccountButton } from './AccountButton.tsx';

const text = frame.account_popover;

/**
 * Spec "Account popover": log out when signed in; sign in or create an account otherwise.
 * The answers typed so far travel with the visitor to sign-in or sign-up: in the link's
 * state, and kept in the tab when the link is followed (never while rendering); on the
 * account pages there is no application session, so the tab's kept answers travel.
 * Loaded when the visitor reaches for the account button (AccountPopover.tsx); it replaces
 * that button and, for the press that loaded it, opens at once.
 */
export function AccountPopoverMenu({ openAtOnce }: { openAtOnce: boolean }) {
  const snapshot = useClientSnapshot();
  const [isOpen, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // opened after mounting, as a press opens it: the focus first goes to this button (the one
  // pressed was the stand-in, now gone), so that closing gives it back here; then the first action takes it
  useEffect(() => {
    if (!openAtOnce) return;
    button.current?.focus();
    setOpen(true);
  }, [openAtOnce]);
  const navigate = useNavigate();
  const session = useOptionalApplicationSession();
  const typed = () => session?.answers.get() ?? anonymousAnswers();
  const carried = () => ({ answers: typed() });
  const keepCarried = () => keepAnonymousAnswers(typed());
  const [failure, setFailure] = useState<unknown>(null);
  if (failure) throw failure; // logout errors go to the error boundary (spec section 8)

  const onLogout = async () => {
    try {
      await logout();
      // a logout the applicant chose is news, not an error (a departure from spec section 2: README "Spec notes")
      navigate('/login', { state: { successMessage: messages.logout_success } });
    } catch (error) {
      setFailure(error);
    }
  };

  const content = (
    // a small dialog, not a menu: the trigger says aria-haspopup="dialog"
    <div className="account-popover" role="dialog" aria-labelledby="account-popover-title">
      <h2 className="account-popover-title" id="account-popover-title">{text.title}</h2>
      {snapshot.is_logged_in ? (
        <>
          <p className="account-popover-user">
            {text.logged_in_as} <strong>{snapshot.username}</strong>
          </p>
          <ReminderSwitch />
          <Button intent="primary" icon="log-out" text={text.log_out} onClick={onLogout} fill />
        </>
      ) : (
        <div className="account-popover-actions">
          <Link className="bp6-button bp6-intent-primary" to="/login" state={carried()} onClick={keepCarried}>{text.sign_in}</Link>
          <Link className="bp6-button" to="/signup" state={carried()} onClick={keepCarried}>{text.create_account}</Link>
        </div>
      )}
    </div>
  );

  return (
    <PopoverNext
      content={content} placement="bottom-end" popupKind={PopupKind.DIALOG} className="account-popover-target" onOpening={focusOnOpen('first')}
      isOpen={isOpen} onInteraction={setOpen}
    >
      <AccountButton ref={button} />
    </PopoverNext>
  );
}
