import { Button, PopoverNext } from '@blueprintjs/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import messages from '../../../../schemas/auth/messages.json';
import frame from '../../../../schemas/text/frame.json';
import { answersStore } from '../../session/answers-store.ts';
import { keepAnonymousAnswers } from '../../session/carried-answers.ts';
import { useClientSnapshot } from '../../session/client-snapshot.ts';
import { logout } from '../../session/end-session.ts';
import { focusOnOpen } from '../../lib/overlay-focus.ts';

const text = frame.account_popover;

/**
 * The answers typed so far travel with the visitor to sign-in or sign-up (spec "Account
 * popover"): in the link's state, and kept in the tab when the link is followed (never
 * while rendering: the header renders before the page has put the tab's answers back).
 */
const carried = () => ({ answers: answersStore.get() });
const keepCarried = () => keepAnonymousAnswers(answersStore.get());

/** Spec "Account popover": log out when signed in; sign in or create an account otherwise. */
export function AccountPopover() {
  const snapshot = useClientSnapshot();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<unknown>(null);
  if (failure) throw failure; // logout errors go to the error boundary (spec section 8)
  if (snapshot.is_service_user) return null;

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
    <div className="account-popover">
      <h2 className="account-popover-title">{text.title}</h2>
      {snapshot.is_logged_in ? (
        <>
          <p className="account-popover-user">
            {text.logged_in_as} <strong>{snapshot.username}</strong>
          </p>
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
    <PopoverNext content={content} placement="bottom-end" className="account-popover-target" onOpening={focusOnOpen('first')}>
      <Button icon="user" endIcon="caret-down" text={frame.header.account_button} variant="outlined" className="account-button" />
    </PopoverNext>
  );
}
