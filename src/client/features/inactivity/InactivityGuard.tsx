import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useNavigate } from '../../lib/routing.tsx';
import messages from '../../../../schemas/auth/messages.json';
import errors from '../../../../schemas/text/errors.json';
import frame from '../../../../schemas/text/frame.json';
import { keepAlive } from './api/keep-alive-api.ts';
import { focusOnOpen } from '../../lib/overlay-focus.ts';
import { partnerText } from '../../lib/partner-text.ts';
import { pluralText } from '../../../shared/text/plural.ts';
import { useClientSnapshot, useProfile } from '../../session/client-snapshot.ts';
import { clearClientData, logout } from '../../session/end-session.ts';
import { useSignedIn } from '../../session/signed-in.ts';
import { useInactivity } from './use-inactivity.ts';

const PROMPT_BEFORE_MS = 60_000;
const KEEP_ALIVE_EVERY_MS = 5 * 60_000; // spec-decisions 11
const text = frame.inactivity;

/** Warns a minute before the inactivity timeout and logs out when it passes. Only from a login until the session ends. */
export function InactivityGuard() {
  const snapshot = useClientSnapshot();
  const profile = useProfile();
  const navigate = useNavigate();
  const signedIn = useSignedIn();
  const timeoutMs = profile?.inactivity_timeout_ms ?? 900_000;
  // the cached profile stays on screen after the session ends: the guard stops with the session itself
  const enabled = signedIn && snapshot.is_logged_in && !snapshot.is_service_user;

  const endSession = async (message: { errorMessage: string } | { successMessage: string }) => {
    try {
      await logout();
    } catch {
      await clearClientData(); // the server may have ended it already; forget it here anyway
    }
    navigate('/login', { state: message });
  };

  const { phase, remainingMs, stay } = useInactivity({
    enabled,
    timeoutMs,
    promptBeforeMs: Math.min(PROMPT_BEFORE_MS, timeoutMs / 2),
    activityPingMs: Math.min(KEEP_ALIVE_EVERY_MS, timeoutMs / 3),
    onIdle: () => void endSession({ errorMessage: errors.inactivity_logout }),
    onActivity: () => void keepAlive().catch(() => {}),
    ignoreWithin: () => document.querySelector('.inactivity-dialog'),
  });

  return (
    <Dialog
      isOpen={enabled && phase === 'prompted'}
      title={text.title}
      isCloseButtonShown={false}
      // Escape answers the question as "Yes": the applicant is here (a key pressed is activity)
      canEscapeKeyClose
      onClose={stay}
      canOutsideClickClose={false}
      className="app-dialog app-dialog-xs inactivity-dialog"
      role="alertdialog"
      aria-describedby="inactivity-text"
      portalClassName="inactivity-overlay"
      onOpening={focusOnOpen('.inactivity-stay')}
    >
        <DialogBody>
          <p id="inactivity-text">{partnerText(pluralText(text.body, Math.ceil(remainingMs / 1000)))}</p>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={text.logout} onClick={() => void endSession({ successMessage: messages.logout_success })} />
              <Button intent="primary" text={text.stay} onClick={stay} className="inactivity-stay" />
            </>
          }
        />
    </Dialog>
  );
}
